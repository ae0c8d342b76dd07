import { sha256Hex } from "./hash-region.js";
import type { SigningKey } from "./keys.js";
import { manifestEntry, manifestFiles, signManifest } from "./sign-manifest.js";
import { signModule } from "./sign-module.js";

const SIGNED = /\.(?:js|mjs|ts)$/;

/** A source item behind an output module, for the manifest. */
export interface OutputSource {
  itemId: string;
  text: string;
}

/**
 * Signs every module of a build output (`// rye:signed:` on line 1, decisions.md #15) and adds a
 * signed `manifest.json` listing each item module with its item id, source hash and module hash, and
 * every signed file with its sha256 (so `rye verify` checks one signature, then hashes).
 * Pure: the same files, key and timestamp give byte-identical output.
 */
export function signOutput(
  files: ReadonlyMap<string, string>,
  key: SigningKey,
  timestamp: string,
  sources: ReadonlyMap<string, OutputSource>,
  version: string,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, text] of files) out.set(path, SIGNED.test(path) ? signModule(text, key, timestamp) : text);
  const modules = [...out]
    .filter(([path]) => sources.has(path))
    .map(([path, text]) => manifestEntry(path, sources.get(path)!.itemId, sources.get(path)!.text, text));
  const hashes = [...out].filter(([path]) => SIGNED.test(path)).map(([path, text]) => [path, sha256Hex(text)] as const);
  const listed = manifestFiles(hashes, (p) => sources.get(p)?.itemId);
  out.set("manifest.json", signManifest({ version, generated_at: timestamp, modules, files: listed }, key, timestamp));
  return out;
}

/**
 * The build's timestamp without reading the clock (decisions.md #16): SOURCE_DATE_EPOCH when set,
 * else the latest `rye:signed:` timestamp among the sources, else the Unix epoch.
 */
export function buildTimestamp(fromEnv: string | null, sourceTimestamps: readonly (string | null)[]): string {
  if (fromEnv) return fromEnv;
  const stamps = sourceTimestamps.filter((t): t is string => t !== null).sort();
  return stamps.at(-1) ?? "1970-01-01T00:00:00Z";
}

export { sha256Hex };
