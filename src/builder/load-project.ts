// The first step of every command that works on a project: where it is, which spaces it reads,
// and what they hold.
import { homedir } from "node:os";
import { resolve } from "node:path";
import type { SourceFile } from "../model/source.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { findProject, type FoundProject } from "../project/find-project.js";
import { readSpaces, spacesFrom, type Spaces } from "../project/read-spaces.js";

/** Where a project is and which other spaces it reads; every path is resolved against `cwd`. */
export interface LoadProjectOptions {
  /** The project root holding `.ai/` (default: the nearest folder at or above `cwd` holding one). */
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
 * The project a command works on: `project` when given (it must exist and hold `.ai/`), else the
 * nearest folder at or above `cwd` holding `.ai/`, stopping below the user space. Every command
 * taking `--project` goes through here; a problem is a usage error and nothing has been written.
 */
export function locateProject(options: { project?: string; userSpace?: string; cwd: string; env: NodeJS.ProcessEnv }): FoundProject {
  const userSpace = resolve(options.cwd, options.userSpace ?? options.env.USER_SPACE ?? homedir());
  return findProject({ project: options.project, cwd: options.cwd, userSpace });
}

/**
 * Reads a project and the spaces around it; throws when there is no project (see `locateProject`).
 * @example const { sources, diagnostics } = loadProject({ project: "." });
 */
export function loadProject(options: LoadProjectOptions = {}): LoadedProject {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const found = locateProject({ project: options.project, userSpace: options.userSpace, cwd, env });
  if ("problem" in found) throw new Error(found.problem);
  const spaces = spacesFrom(found.root, { "user-space": options.userSpace, system: options.systems }, cwd, env);
  return { spaces, ...readSpaces(spaces) };
}
