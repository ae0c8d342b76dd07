// An output folder signed as rye build signs one, from a handful of files: each code file signed,
// then the root manifest and one shard per folder (src/sign/sign-manifest.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SigningKey } from "../../src/sign/keys.js";
import { sha256Hex } from "../../src/sign/hash-region.js";
import { manifestFiles } from "../../src/sign/sign-manifest.js";
import { signModule } from "../../src/sign/sign-module.js";
import { MODULE_SCOPE } from "../../src/output/private-module-folder.js";

/** A file's text, or its text and the item whose `.js` module it is (with the item's source text). */
export type OutputFile = string | [text: string, itemId: string | null, source?: string];

/** Writes `files` into `out`, code files signed with `key`, and the manifest listing them. Returns the written texts. */
export function writeSignedOutput(out: string, files: Record<string, OutputFile>, key: SigningKey, timestamp = "2026-01-01T00:00:00Z"): Map<string, string> {
  const written = new Map<string, string>();
  const items = new Map<string, { itemId: string; sourceSha256: string }>();
  // Every build writes out/package.json and its manifest binds it: unless the caller gives its own.
  const all: Record<string, OutputFile> = { "package.json": MODULE_SCOPE, ...files };
  for (const [path, file] of Object.entries(all)) {
    const [text, itemId, source] = typeof file === "string" ? [file, null] : file;
    const signed = /\.(?:js|mjs|ts)$/.test(path) ? signModule(text, key, timestamp) : text;
    written.set(path, signed);
    if (itemId) items.set(path, { itemId, sourceSha256: sha256Hex(source ?? "") });
  }
  const hashes = [...written].map(([path, text]) => [path, sha256Hex(text)] as const);
  for (const [path, text] of manifestFiles(hashes, (p) => items.get(p), { version: "1", generated_at: timestamp }, key)) written.set(path, text);
  for (const [path, text] of written) {
    mkdirSync(dirname(join(out, path)), { recursive: true });
    writeFileSync(join(out, path), text);
  }
  return written;
}

/** A manifest of the first format (one file listing every module): rye refuses it and asks for a rebuild. */
export const FORMAT_1_MANIFEST = `${JSON.stringify({ version: "1", generated_at: "2026-01-01T00:00:00Z", modules: [], files: [], signature: "rye:signed:2026-01-01T00:00:00Z:" + "0".repeat(64) + ":AAAA:" + "0".repeat(16) }, null, 2)}\n`;
