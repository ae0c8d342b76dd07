/**
 * `rye verify --provenance FILE`: a record an application logged beside a rendered prompt (see
 * runtime/provenance.ts), checked field by field against an output folder or a bundle that has
 * already verified. Each fact is read from what the signature covers: the root manifest and the
 * item's shard for an output folder; a bundle's build line and the item's module text in it.
 */
import { readRegularText } from "../project/read-regular.js";
import { join } from "node:path";
import { parseBundleMetadata } from "../sign/bundle-metadata.js";
import { parseShard, shardPath, splitPath } from "../sign/sign-manifest.js";
import { buildIdOf, PROVENANCE_FIELDS, type Provenance } from "../runtime/provenance.js";
import type { VerifyResult } from "./verify.js";

const FOLDERS: Record<string, string> = { directive: "directives", knowledge: "knowledge", tool: "tools" };

/** A logged record as read from its file, or the sentence saying why it is not one. */
export function parseProvenanceRecord(text: string, label: string): Provenance | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `${label}: not valid JSON: ${(e as Error).message}`;
  }
  // A record logged inside a larger object (`rye run`'s output) is found under `provenance`.
  if (v && typeof v === "object" && !Array.isArray(v) && "provenance" in v && !("item" in v)) v = (v as { provenance: unknown }).provenance;
  if (!v || typeof v !== "object" || Array.isArray(v)) return `${label}: not a provenance record (a JSON object with ${PROVENANCE_FIELDS.join(", ")})`;
  const r = v as Record<string, unknown>;
  const missing = PROVENANCE_FIELDS.filter((f) => typeof r[f] !== "string" && !(f === "source_sha256" && r[f] === null));
  if (missing.length > 0) return `${label}: field "${missing[0]}" is missing or not a string`;
  return r as unknown as Provenance;
}

/** The facts the verified target holds for the record's item; a string when it has no such item. */
function factsOf(result: VerifyResult, record: Provenance): Provenance | string {
  const folder = FOLDERS[record.kind];
  if (!folder) return `field "kind": "${record.kind}" is not a kind of compiled item (directive, knowledge, tool)`;
  if (result.kind === "output") return outputFacts(result, record, folder);
  return bundleFacts(result, record);
}

function outputFacts(result: VerifyResult, record: Provenance, folder: string): Provenance | string {
  const root = result.output!.manifest.manifest!;
  const [dir, name] = splitPath(`${folder}/${record.item}.js`);
  // The shard's bytes matched the signed root when the output verified.
  const shard = root.shards[dir] === undefined ? null : parseShard(readRegularText(join(result.output!.dir, shardPath(dir)), { kind: "manifest" }), dir);
  const entry = shard && typeof shard !== "string" ? shard.items[name] : undefined;
  if (!entry || entry[0] !== record.item) return `field "item": no ${record.kind} "${record.item}" in this output`;
  return {
    item: entry[0], kind: record.kind, source_sha256: entry[1], compiler: String(root.version),
    signer: result.output!.manifest.signature!.fingerprint, build_id: buildIdOf({ sources: root.build.sources, counter: root.build.counter, generated_at: root.generated_at }),
  };
}

const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const MODULE_FACTS = new RegExp(String.raw`item:\s*(${STRING}),\s*kind:\s*"(\w+)",\s*source_sha256:\s*(null|"[a-f0-9]{64}"),\s*compiler:\s*(${STRING})`, "g");

function bundleFacts(result: VerifyResult, record: Provenance): Provenance | string {
  const text = readRegularText(result.path, { kind: "output", link: { links: "follow" } });
  const build = parseBundleMetadata(text);
  if (!build) return `the bundle carries no build metadata line: rebuild it with this rye`;
  for (const m of text.matchAll(MODULE_FACTS)) {
    if (JSON.parse(m[1]!) !== record.item || m[2] !== record.kind) continue;
    return {
      item: record.item, kind: record.kind, source_sha256: JSON.parse(m[3]!) as string | null, compiler: JSON.parse(m[4]!) as string,
      signer: result.bundle!.inline.signature!.fingerprint, build_id: buildIdOf({ sources: build.sources, counter: build.counter, generated_at: build.generated_at }),
    };
  }
  return `field "item": no ${record.kind} "${record.item}" in this bundle`;
}

/** The problems of a record against a target that verified: none when every field matches. */
export function provenanceProblems(result: VerifyResult, record: Provenance, label: string, target: string): string[] {
  const facts = factsOf(result, record);
  if (typeof facts === "string") return [`${label}: ${otherKind(result, record) ?? facts} (${target})`];
  return PROVENANCE_FIELDS.filter((f) => record[f] !== facts[f]).map((f) => `${label}: field "${f}" differs from ${target}\n  Record: ${JSON.stringify(record[f])}\n  Output: ${JSON.stringify(facts[f])}`);
}

/** When the record's item is there as another kind of item, the sentence naming the kind that differs. */
function otherKind(result: VerifyResult, record: Provenance): string | null {
  for (const kind of Object.keys(FOLDERS)) {
    if (kind === record.kind) continue;
    const found = factsOf(result, { ...record, kind: kind as Provenance["kind"] });
    if (typeof found !== "string") return `field "kind" differs: "${record.item}" is a ${kind}, the record says ${JSON.stringify(record.kind)}`;
  }
  return null;
}
