import { lstatSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { SourceFile } from "../model/source.js";
import * as d from "../diagnostics/codes.js";
import { DEFAULT_MAX_FILE_BYTES, describe, readProject, type ReadOptions } from "./read-project.js";
import { NotReadable } from "./source-text.js";
import { readRegular } from "./read-regular.js";
import { KeptSourceBytes } from "./kept-bytes.js";

export interface Spaces {
  project: string;
  /** `--user-space`, else `$USER_SPACE`, else the home directory (decisions.md #17). */
  user: string;
  /** `--system DIR`, repeatable, in order. */
  systems: readonly string[];
  /** Files larger than this many bytes are reported, not read (RYE_MAX_FILE_SIZE). */
  maxFileBytes?: number;
}

/** The spaces of a build from CLI flags and the environment. */
export function spacesFrom(project: string, flags: { "user-space"?: string; system?: string[] }, cwd: string, env: NodeJS.ProcessEnv): Spaces {
  return {
    project,
    user: resolve(cwd, flags["user-space"] ?? env.USER_SPACE ?? homedir()),
    systems: (flags.system ?? []).map((s) => resolve(cwd, s)),
    ...maxFileBytes(env.RYE_MAX_FILE_SIZE),
  };
}

/** RYE_MAX_FILE_SIZE: a byte count, optionally with a k/m/g suffix (powers of 1024). */
function maxFileBytes(value: string | undefined): { maxFileBytes?: number } {
  const m = /^\s*(\d+)\s*([kmg]?)i?b?\s*$/i.exec(value ?? "");
  if (!m) return {};
  const scale = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as "" | "k" | "m" | "g"];
  return { maxFileBytes: Number(m[1]) * scale };
}

/** The spaces a build reads, as [space, root] in probing order (a user space that is the project is read once). */
export function spacesInOrder(spaces: Spaces): [space: string, root: string][] {
  const list: [string, string][] = [["project", spaces.project]];
  if (resolve(spaces.user) !== resolve(spaces.project)) list.push(["user", spaces.user]);
  spaces.systems.forEach((dir, i) => list.push([`system:${i}`, dir]));
  return list;
}

/**
 * Reads every space, project → user → system, tagging each item with its space; items of other
 * spaces carry absolute paths so diagnostics name them unambiguously. The first
 * `hook_conditions.yaml` found in that order configures context hooks. With `rereadTexts`, up to
 * `keptBytes` bytes of the texts (default KEPT_SOURCE_BYTES) are kept for every space together.
 */
export function readSpaces(
  spaces: Spaces,
  read: { rereadTexts?: boolean; keptBytes?: number } = {},
): { sources: SourceFile[]; diagnostics: Diagnostic[]; hookConfig: { path: string; text: string } | null } {
  const keep = read.rereadTexts ? new KeptSourceBytes(read.keptBytes) : undefined;
  const options: ReadOptions = { maxFileBytes: spaces.maxFileBytes, rereadTexts: read.rereadTexts, keep };
  const project = readProject(spaces.project, undefined, options);
  // The objects readProject made, labelled in place: each stays the one it knows the file of (factsOf).
  const sources: SourceFile[] = project.sources.map((s) => Object.assign(s, { space: "project" }));
  const others = spacesInOrder(spaces).slice(1);
  for (const [space, root] of others) {
    for (const s of readProject(root, undefined, options).sources) sources.push(Object.assign(s, { space, path: join(root, s.path) }));
  }
  let hookConfig: { path: string; text: string } | null = null;
  for (const root of [spaces.project, ...others.map(([, r]) => r)]) {
    const path = join(root, ".ai", "config", "agent", "hook_conditions.yaml");
    // Present as any entry (a dangling link is reported, not taken for "none").
    if (lstatSync(path, { throwIfNoEntry: false })) {
      try {
        // A regular file within the size limit only, a link only to a file inside its space: a FIFO
        // here would block the build, /dev/zero never end, a link out read another file.
        const read = readRegular(path, { kind: "config", maxBytes: spaces.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, link: { links: "inside", root } });
        hookConfig = { path, text: read.toString("utf8") };
      } catch (e) {
        const at = { offset: 0, line: 1, column: 1 };
        project.diagnostics.push(d.unreadablePath({ source: path, start: at, end: at }, e instanceof NotReadable ? e.reason : describe(e)));
      }
      break;
    }
  }
  return { sources, diagnostics: project.diagnostics, hookConfig };
}
