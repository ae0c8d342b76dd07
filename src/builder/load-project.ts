// The first step of every command that works on a project: where it is, which spaces it reads,
// and what they hold.
import { resolve } from "node:path";
import type { SourceFile } from "../compile/source.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { readSpaces, spacesFrom, type Spaces } from "../project/read-spaces.js";

/** Where a project is and which other spaces it reads; every path is resolved against `cwd`. */
export interface LoadProjectOptions {
  /** The project root holding `.ai/` (default: `cwd`). */
  project?: string;
  /** The user space (default: `$USER_SPACE`, else the home directory). */
  userSpace?: string;
  /** System spaces, searched last, in order. */
  systems?: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** A project's spaces and every item they hold, read once. */
export interface LoadedProject {
  spaces: Spaces;
  sources: SourceFile[];
  /** Problems reading the tree (unreadable files, bad names, symlinks leaving the project). */
  diagnostics: Diagnostic[];
  /** The first `.ai/config/agent/hook_conditions.yaml` found, project → user → system. */
  hookConfig: { path: string; text: string } | null;
}

/**
 * Reads a project and the spaces around it.
 * @example const { sources, diagnostics } = loadProject({ project: "." });
 */
export function loadProject(options: LoadProjectOptions = {}): LoadedProject {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const project = resolve(cwd, options.project ?? ".");
  const spaces = spacesFrom(project, { "user-space": options.userSpace, system: options.systems }, cwd, env);
  return { spaces, ...readSpaces(spaces) };
}
