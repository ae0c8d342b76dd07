import type { KnowledgeItem } from "../model/items.js";
import { itemHeader } from "./emit-directive.js";
import { json, lit, template } from "./escape.js";
import { provenanceDeclaration, provenanceExport } from "./provenance.js";

/**
 * `knowledge/<id>.{js,ts,d.ts}`: a knowledge item's metadata and content, with no source read at
 * run time. `ts: false` leaves the TypeScript source out (`ts` is then ""), as for directives.
 */
export function emitKnowledge(k: KnowledgeItem, version: string, options: { ts?: boolean; sourceSha256?: string | null } = {}): { path: string; js: string; ts: string; dts: string } {
  const header = itemHeader(k.source);
  const up = "../".repeat(k.id.split("/").length);
  const origin = { kind: "knowledge" as const, id: k.id, sourceSha256: options.sourceSha256, version };
  const { body, raw: _raw, ...meta } = k.data;
  const code = (ts: boolean) => `export const id = ${lit(k.id)};
export const metadata${ts ? ": Readonly<Record<string, unknown>>" : ""} = ${json(meta)};
/** The item's content: the markdown after its metadata fence. */
export const content = ${template(body)};
export default { id, metadata, content };
${provenanceExport(origin, ts, `../${up}runtime/provenance.js`)}`;
  const dts = `export declare const id: ${lit(k.id)};
export declare const metadata: Readonly<Record<string, unknown>>;
/** The item's content: the markdown after its metadata fence. */
export declare const content: string;
declare const knowledge: { id: typeof id; metadata: typeof metadata; content: string };
export default knowledge;
${provenanceDeclaration(k.id, up)}`;
  return { path: `knowledge/${k.id}`, js: header + code(false), ts: options.ts === false ? "" : header + code(true), dts: header + dts };
}
