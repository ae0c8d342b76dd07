import { readRegularFile } from "./read-file.js";
import { pathToFileURL } from "node:url";
import { buildProvenanceOf, provenanceOf, type ItemProvenance, type Provenance } from "./provenance.js";

/**
 * An item's full record, with the build's facts read from `outDir/manifest.json` (Node only; a
 * browser bundle passes the manifest's text to `buildProvenanceOf` itself). The manifest is read
 * once per folder: the record is then a constant join, nothing a render waits for.
 */
export function readProvenance<K extends string>(outDir: string | URL, item: ItemProvenance<K> | { readonly provenance: ItemProvenance<K> }): Provenance<K> {
  const key = String(outDir);
  let build = builds.get(key);
  if (!build) builds.set(key, (build = buildProvenanceOf(readRegularFile(new URL("manifest.json", withSlash(outDir))))));
  return provenanceOf(item, build);
}

const builds = new Map<string, ReturnType<typeof buildProvenanceOf>>();

function withSlash(dir: string | URL): URL {
  const url = typeof dir === "string" ? pathToFileURL(dir) : dir;
  return url.href.endsWith("/") ? url : new URL(`${url.href}/`);
}
