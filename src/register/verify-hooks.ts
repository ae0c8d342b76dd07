/**
 * Module customization hooks (Node ≥ 20.6) that verify build output as Node loads it: the bytes
 * the default loader just read are checked by the OutputGuard and only then returned, so the
 * source Node evaluates is exactly the source that was verified. A failing file throws an
 * IntegrityError naming its item, during loading: nothing of it, nor of what imports it, runs.
 */
import { dirname, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";
import { IntegrityError } from "../verify/integrity-error.js";
import { OutputGuard, type GuardOptions } from "../verify/output-guard.js";
import { requestedPath } from "./requested-path.js";
import { readResolveRequest } from "./resolve-request.js";

type LoadResult = { format?: string | null; source?: string | ArrayBuffer | Uint8Array | null; shortCircuit?: boolean };
type NextLoad = (url: string, context?: unknown) => Promise<LoadResult>;
type ResolveContext = { parentURL?: string; conditions?: string[] };
type NextResolve = (specifier: string, context?: ResolveContext) => Promise<{ url: string }>;

let guard = new OutputGuard();

/** Receives the options `register` passed (trusted keys, output folders, the working directory). */
export function initialize(data: GuardOptions | undefined): void {
  guard = new OutputGuard(data ?? {});
}

function bytesOf(source: LoadResult["source"]): Uint8Array | string {
  if (typeof source === "string" || source instanceof Uint8Array) return source;
  return new Uint8Array(source as ArrayBuffer);
}

/**
 * Resolves as Node would; a request from the register entry's require() hook (which needs another
 * module's import resolved synchronously) is resolved from the parent it names.
 */
export async function resolve(specifier: string, context: ResolveContext, nextResolve: NextResolve): Promise<{ url: string }> {
  const request = readResolveRequest(specifier);
  const asked = request ?? { specifier, parentURL: context.parentURL };
  const parent = asked.parentURL?.startsWith("file:") ? fileURLToPath(asked.parentURL) : null;
  // An output module's bare import of a runtime package resolves from this install of rye-build, never
  // by a lookup that starts in the output folder (where a planted node_modules would answer) or the checkout.
  const from = parent !== null && guard.checkImport(asked.specifier, parent) === "rye" ? import.meta.url : asked.parentURL;
  const result = await nextResolve(asked.specifier, { ...context, parentURL: from });
  guard.atOnce(() => {
    if (parent !== null && from === asked.parentURL && result.url.startsWith("file:")) guard.checkImport(asked.specifier, parent, fileURLToPath(result.url));
    checkRequested(asked.specifier, asked.parentURL, result.url);
    if (result.url.startsWith("file:")) guard.checkNotLinked(fileURLToPath(result.url), parent);
  });
  return result;
}

/**
 * `load` only sees the resolved URL, a link's target: the path as requested is checked here, so a
 * module of an output folder replaced by a link (to a payload, or to another build's file) is refused.
 */
function checkRequested(specifier: string, parentURL: string | undefined, resolved: string): void {
  // With --preserve-symlinks the resolved URL is itself the requested path.
  const resolvedPath = resolved.startsWith("file:") ? fileURLToPath(resolved) : null;
  if (resolvedPath !== null) guard.checkRequested(resolvedPath);
  let fromDir = process.cwd();
  if (parentURL?.startsWith("file:")) fromDir = dirname(fileURLToPath(parentURL));
  const asked = requestedPath(specifier, fromDir);
  if (asked !== null && asked !== resolvedPath) guard.checkRequested(asked);
  // A request naming an output folder or a file in one loads only a file of that folder.
  if (!resolved.startsWith("file:")) return;
  const named = /^(?:\.\.?(?:\/|$)|\/)/.test(specifier) ? resolvePath(fromDir, specifier.split(/[?#]/)[0]!) : asked;
  for (const path of new Set([named, asked])) if (path !== null) guard.checkLands(path, fileURLToPath(resolved));
}

/** Verifies every `file:` module the loader returns that belongs to a build output or is rye-signed. */
export async function load(url: string, context: unknown, nextLoad: NextLoad): Promise<LoadResult> {
  // Before Node reads it: an output file's folder (its tree included) is verified first.
  if (url.startsWith("file:")) guard.beforeRead(fileURLToPath(url));
  const result = await nextLoad(url, context);
  if (!url.startsWith("file:")) return result;
  const path = fileURLToPath(url);
  if (result.source === null || result.source === undefined) {
    // CommonJS is read later by its own loader unless its source comes from here: build output is
    // read once and verified, and the CommonJS translator compiles exactly those bytes.
    if (guard.outputFolderOf(path) === null) return result;
    if (result.format !== "commonjs") throw new IntegrityError(path, `${path} would be loaded as ${result.format ?? "unknown"} without its source passing through the verifier, so it does not run`);
    const bytes = guard.read(path);
    guard.check(path, bytes);
    return { ...result, source: bytes };
  }
  guard.check(path, bytesOf(result.source));
  return result;
}
