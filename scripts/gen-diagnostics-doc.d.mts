// Types of gen-diagnostics-doc.mjs for the documentation test.
import type { build, formatDiagnostic } from "../src/index.js";
import type { main } from "../src/cli/main.js";
import type { compileAgentConfig } from "../src/agents/agent-config.js";
import type { parseConfigText } from "../src/project/read-config.js";
import type { readSpaces } from "../src/project/read-spaces.js";
import type { SourceFile } from "../src/model/source.js";
import type { formatTrustedKeyToml, signingKeyFrom, signItem } from "../src/sign/index.js";

/** What the generator runs examples with: the package's own functions, from src/ in tests and dist/ in the script. */
export interface DocApi {
  build: typeof build;
  formatDiagnostic: typeof formatDiagnostic;
  CODES: Record<string, readonly [string, string]>;
  readSpaces: typeof readSpaces;
  parseConfigText: typeof parseConfigText;
  compileAgentConfig: typeof compileAgentConfig;
  main: typeof main;
  signItem: typeof signItem;
  signingKeyFrom: typeof signingKeyFrom;
  formatTrustedKeyToml: typeof formatTrustedKeyToml;
}

/** A file of an example: a source for build(), or a file a `cli` example writes (text, raw bytes, a link, a folder). */
export type ExampleFile = Partial<SourceFile> & {
  path: string;
  text?: string;
  latin1?: boolean;
  symlink?: string;
  dir?: boolean;
  sign?: "trusted" | "other";
  after?: { from: string; to: string };
  forge?: boolean;
};

export interface RunInput {
  runner: "build" | "cli" | "config" | "agents";
  sources: ExampleFile[];
  hookConfig?: { path: string; text: string } | null;
  args?: string[];
  env?: Record<string, string>;
  trust?: boolean;
}

export interface Entry {
  summary: string;
  explain: string;
  example: {
    fixture?: string;
    project?: string;
    tools?: string;
    cli?: { files: ExampleFile[]; args: string[]; env?: Record<string, string>; trust?: boolean };
    config?: ExampleFile;
    agents?: ExampleFile;
    show?: string[];
    setup?: string;
    /** Shown as text only: */
    files?: { path: string; text: string; lang?: string; note?: string }[];
    command?: string;
    output?: string;
    needs?: string;
    checked_by?: string;
  };
  fix?: Record<string, unknown>[];
  fix_prose: string;
}

export interface Example {
  code: string;
  entry: Entry;
  failing: RunInput | null;
  fixed: RunInput | null;
}

export const DOC_PATH: string;
export function examples(api: DocApi): Example[];
export function run(api: DocApi, input: RunInput): Promise<{ code: string; severity: string; source?: string; text: string }[]>;
export function lineDiff(before: string, after: string): string;
export function generate(api: DocApi): Promise<{ text: string; missing: string[]; extra: string[] }>;
