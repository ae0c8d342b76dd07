import { sha256Hex } from "./hash-region.js";
import type { SigningKey } from "./keys.js";
import { manifestFiles } from "./sign-manifest.js";
import { LISTED, carriesSignatureLine } from "./signed-files.js";
import { signModule } from "./sign-module.js";
import type { BuildMetadata } from "./source-tree.js";


/** A source item behind an output module, for the manifest. */
export interface OutputSource {
  itemId: string;
  text: string;
}

/**
 * Signs every module of a build output (`// rye:signed:` on line 1, decisions.md #15) and adds the
 * manifest: a signed root `manifest.json` and one shard per folder listing every signed file with its
 * sha256 and each item module with its item id and source hash (so `rye verify` checks one signature, then hashes).
 * Pure: the same files, key and timestamp give byte-identical output.
 */
export function signOutput(
  files: ReadonlyMap<string, string>,
  key: SigningKey,
  timestamp: string,
  sources: ReadonlyMap<string, OutputSource>,
  version: string,
  build?: BuildMetadata,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, text] of files) out.set(path, carriesSignatureLine(path) ? signModule(text, key, timestamp) : text);
  const hashes = [...out].filter(([path]) => LISTED.test(path)).map(([path, text]) => [path, sha256Hex(text)] as const);
  const item = (p: string) => {
    const s = sources.get(p);
    return s && { itemId: s.itemId, sourceSha256: sha256Hex(s.text) };
  };
  const header = build ? { version, generated_at: timestamp, build: { counter: build.counter, sources: build.sources, compiler: build.compiler, options: build.options }, sourceList: build.list } : { version, generated_at: timestamp };
  for (const [path, text] of manifestFiles(hashes, item, header, key)) out.set(path, text);
  return out;
}

/**
 * The build's timestamp without reading the clock (decisions.md #16): SOURCE_DATE_EPOCH when set,
 * else the Unix epoch. Nothing from a source counts: a source's signature time is not signed.
 */
export function buildTimestamp(fromEnv: string | null): string {
  return fromEnv ?? "1970-01-01T00:00:00Z";
}

export { sha256Hex };
