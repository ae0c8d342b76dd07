// Types of gen-diagnostics-doc.mjs for the documentation test.
import type { build, formatDiagnostic } from "../src/index.js";
import type { CODES } from "../src/diagnostics/codes.js";
import type { readSpaces } from "../src/project/read-spaces.js";
import type { SourceFile } from "../src/compile/source.js";

/** What the generator compiles with: the package's own functions, from src/ in tests and dist/ in the script. */
export interface DocApi {
  build: typeof build;
  formatDiagnostic: typeof formatDiagnostic;
  CODES: Record<string, readonly [string, string]>;
  readSpaces: typeof readSpaces;
}

export interface BuildInput {
  sources: SourceFile[];
  hookConfig: { path: string; text: string } | null;
}

export interface TextExample {
  files?: { path: string; text: string; lang?: string; note?: string }[];
  command?: string;
  setup?: string;
  output: string;
  needs: string;
  checked_by: string;
}

export interface Entry {
  summary: string;
  explain: string;
  example: { fixture?: string; project?: string; tools?: string; show?: string[] } & Partial<TextExample>;
  fix?: unknown[];
  fix_prose: string;
  fix_files?: { path: string; text: string; lang?: string }[];
}

export interface Example {
  code: string;
  entry: Entry;
  failing: BuildInput | null;
  fixed: BuildInput | null;
}

export const DOC_PATH: string;
export const INSTRUCTION_CODE: string;
export function examples(api: DocApi): Example[];
export function lineDiff(before: string, after: string): string;
export function generate(api: DocApi): { text: string; missing: string[]; extra: string[] };
