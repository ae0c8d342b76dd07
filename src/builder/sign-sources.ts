// `rye sign`: finds source items (the project's, or the files, folders and `kind:id` references
// given) and signs each in place with this machine's key. A file is replaced by a rename of a
// complete copy with the same mode, so an interrupted run never leaves half a file.
import { chmodSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readRegular } from "../project/read-regular.js";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { ITEM_DIRS, readProject } from "../project/read-project.js";
import { decodeSource } from "../project/source-text.js";
import { kindFromPath, isUnderAi } from "../sign/kind-from-path.js";
import { signSource } from "../sign/sign-source.js";
import { formatTimestamp, timestampFromEnv } from "../sign/sign-item.js";
import type { SigningKey } from "../sign/keys.js";
import type { ItemKind } from "../sign/signature-line.js";

/** A file to sign and how. */
export interface SignTarget {
  path: string;
  kind: ItemKind;
  /** The project the target belongs to: a link is signed through only when it leads to a file inside it. */
  project?: string;
}

export interface SignResult {
  path: string;
  kind: ItemKind;
  status: "signed" | "re-signed" | "unchanged" | "error";
  /** Why it failed, or what it replaced. */
  detail?: string;
}

const KINDS: readonly ItemKind[] = ["directive", "knowledge", "tool", "config"];
const CONFIG_EXTS = [".yaml", ".yml", ".toml"];
const SKIP_DIRS = new Set(["node_modules", ".git", ".rye-cache"]);

/**
 * What `rye sign` signs: with no arguments every directive, knowledge item and tool of the project;
 * otherwise each argument, a file (its kind from its place under `.ai/`, or `kind`), a folder (the
 * items under its `.ai/` folders) or a reference `kind:id` looked up in the project, as the original's
 * messages spell it (`rye sign tool:demo/run`).
 */
export function findSignTargets(project: string, args: readonly string[], cwd: string, kind?: ItemKind): { targets: SignTarget[]; problems: string[] } {
  const targets: SignTarget[] = [];
  const problems: string[] = [];
  if (args.length === 0) {
    for (const s of readProject(project).sources) targets.push({ path: join(project, s.path), kind: s.kind, project });
    return { targets, problems };
  }
  for (const arg of args) {
    const ref = /^(directive|knowledge|tool|config):(.+)$/.exec(arg);
    if (ref && !statSync(resolve(cwd, arg), { throwIfNoEntry: false })) {
      const found = lookUp(project, ref[1] as ItemKind, ref[2]!);
      if (found) targets.push({ path: found, kind: ref[1] as ItemKind, project });
      else problems.push(`${arg}: no ${ref[1]} '${ref[2]}' under ${join(project, ".ai")}`);
      continue;
    }
    const path = resolve(cwd, arg);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st) problems.push(`${arg}: no such file or folder`);
    else if (st.isDirectory()) walk(path, targets);
    else {
      const inferred = kind ?? kindFromPath(path);
      if (inferred === "module" || inferred === "manifest") problems.push(`${arg}: build output is signed by rye build, not rye sign`);
      else if (inferred === null) problems.push(`${arg}: cannot tell what kind of item this is; pass --kind ${KINDS.join("|")}`);
      else targets.push({ path, kind: inferred, project });
    }
  }
  return { targets, problems };
}

/** The file of a `kind:id` reference in the project, probing extensions in the build's order. */
function lookUp(project: string, kind: ItemKind, id: string): string | null {
  if (id.split("/").some((p) => p === "" || p === "." || p === "..") || id.includes("\\")) return null;
  const { dir, exts } = kind === "config" ? { dir: "config", exts: CONFIG_EXTS } : ITEM_DIRS[kind];
  for (const ext of exts) {
    const path = join(project, ".ai", dir, `${id}${ext}`);
    if (statSync(path, { throwIfNoEntry: false })?.isFile()) return path;
  }
  return null;
}

/** Items under the `.ai/` folders below `dir` (directives, knowledge, tools; config only when named); symlinks are not followed. */
function walk(dir: string, out: SignTarget[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) walk(path, out);
    } else if (e.isFile() && isUnderAi(path)) {
      const kind = kindFromPath(path);
      if (kind === "directive" || kind === "knowledge" || kind === "tool") out.push({ path, kind });
    }
  }
}

/** The signature timestamp: SOURCE_DATE_EPOCH when set, else now. */
export function signingTime(env: NodeJS.ProcessEnv): string {
  return timestampFromEnv(env) ?? formatTimestamp(new Date());
}

/** Signs one file in place; an item that cannot be signed is reported and left as it was. */
export function signFile(target: SignTarget, key: SigningKey, timestamp: string): SignResult {
  const { path, kind } = target;
  try {
    const outside = target.project === undefined ? null : leadsOutside(path, target.project);
    if (outside) throw new Error(`it is a link to ${outside}, outside the project; rye sign reads and writes only the project's own files`);
    const text = decodeSource(readRegular(path, { kind: "source", link: { links: "follow" } }));
    const result = signSource(text, kind, basename(path), key, timestamp);
    if (result.status === "unchanged") return { path, kind, status: "unchanged" };
    replaceFile(path, result.text);
    const was = result.previous;
    const detail = was ? (was.fingerprint !== key.fingerprint ? `was signed by ${was.fingerprint}` : "its content had changed since signing") : undefined;
    return { path, kind, status: result.status, detail };
  } catch (e) {
    const detail = e instanceof TypeError ? "not UTF-8 text" : (e as Error).message;
    return { path, kind, status: "error", detail };
  }
}

/** Where `path` really is when that lies outside `project` (a link out of it), else null. */
function leadsOutside(path: string, project: string): string | null {
  const real = realpathSync(path);
  const root = realpathSync(project);
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep) ? null : real;
}

function replaceFile(link: string, text: string): void {
  // Through a symlink (the project may link items), the file it names is the one signed.
  const path = realpathSync(link);
  const tmp = join(dirname(path), `.${basename(path)}.rye-sign-${process.pid}`);
  try {
    writeFileSync(tmp, text, { flag: "wx" });
    chmodSync(tmp, statSync(path).mode & 0o7777);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** `path` as shown to the user: relative to the working directory when inside it. */
export function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith(`..${sep}`) && rel !== ".." ? rel.split(sep).join("/") : path;
}
