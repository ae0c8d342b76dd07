import { baseName, pathSuffix, type ItemKind } from "./signature-line.js";

/** What a file is to the verifier: a Rye item kind, a generated module, a build manifest, or nothing to verify. */
export type FileKind = ItemKind | "module" | "manifest" | null;

const JS = new Set([".js", ".ts", ".mjs", ".cjs"]);

const slashed = (path: string) => (path.includes("\\") ? path.replace(/\\/g, "/") : path);

/** The folder right below the first `.ai` segment of `path`, if any (verify asks this of every file it walks). */
function aiDir(path: string): string | undefined {
  const p = slashed(path);
  const segment = p.startsWith(".ai/") ? 0 : p.indexOf("/.ai/") + 1;
  if (segment === 0 && !p.startsWith(".ai/")) return undefined;
  const from = segment + 4;
  const end = p.indexOf("/", from);
  return end === -1 ? p.slice(from) : p.slice(from, end);
}

/** True when a segment of `path` is `.ai`. */
export function isUnderAi(path: string): boolean {
  const p = slashed(path);
  return p === ".ai" || p.startsWith(".ai/") || p.includes("/.ai/") || p.endsWith("/.ai");
}

/**
 * Infers how to verify a file from its path: `.md` under `.ai/directives/` or `.ai/knowledge/`; tools
 * (`.py`, `.yaml`, `.js`, … under `.ai/tools/`, and `.py` anywhere; `.json` never, as it cannot carry a comment line); config (`.yaml`/`.yml`/`.toml` under
 * `.ai/config/`); bundle manifests under `.ai/bundles/` (hashed like tools); generated modules
 * (`.js`/`.ts`/`.mjs`/`.cjs` outside `.ai/`); a `*manifest*.json` outside `.ai/`. Anything else is null.
 */
export function kindFromPath(path: string): FileKind {
  const ext = pathSuffix(path).toLowerCase();
  const dir = aiDir(path);
  if (ext === ".md") return dir === "directives" ? "directive" : dir === "knowledge" ? "knowledge" : null;
  if (dir === undefined) {
    if (JS.has(ext)) return "module";
    if (ext === ".json" && baseName(path).includes("manifest")) return "manifest";
    if (ext === ".py") return "tool";
    if (ext === ".yaml" || ext === ".yml" || ext === ".toml") return "tool";
    return null;
  }
  if (dir === "config") return ext === ".yaml" || ext === ".yml" || ext === ".toml" ? "config" : null;
  if (dir === "knowledge") return ext === ".yaml" || ext === ".yml" ? "knowledge" : null;
  if (dir === "tools" || dir === "bundles") {
    return JS.has(ext) || [".py", ".yaml", ".yml", ".sh", ".toml"].includes(ext) ? "tool" : null;
  }
  return null;
}

/** For an `.md` file outside `.ai/`: a directive when it holds a `<directive …>` element, otherwise knowledge. */
export function sniffMarkdownKind(text: string): "directive" | "knowledge" {
  return /<directive[\s>]/.test(text) ? "directive" : "knowledge";
}
