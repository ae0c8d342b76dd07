import type { ProvenanceKind } from "../runtime/provenance.js";
import { lit } from "./escape.js";

/** What an item module says of where it came from: facts of the item alone, so an unchanged item's bytes stay the same. */
export interface ModuleProvenance {
  kind: ProvenanceKind;
  id: string;
  /** sha256 of the source file as the manifest lists it; null when the caller had no source text (a module emitted on its own). */
  sourceSha256: string | null | undefined;
  version: string;
}

/**
 * `export const provenance = …`: a frozen constant made once when the module loads, which no render
 * reads. `runtime` is the specifier of runtime/provenance.js from the module (for its TypeScript source).
 */
export function provenanceExport(p: ModuleProvenance, ts: boolean, runtime: string): string {
  const sha = p.sourceSha256 ? lit(p.sourceSha256) : "null";
  // Compact: every module carries it (its doc is in the .d.ts). The id is written out, not `id`,
  // so that `rye verify --provenance` finds it in a bundle, where the bundler renames variables.
  const value = `Object.freeze({item:${lit(p.id)},kind:${lit(p.kind)},source_sha256:${sha},compiler:${lit(p.version)}})`;
  if (!ts) return `export const provenance=${value};\n`;
  return `import type { ItemProvenance } from ${lit(runtime)};\n/** Where this module came from: see runtime/provenance.js. */\nexport const provenance: ItemProvenance<typeof id> = ${value};\n`;
}

/** The declaration of `provenance` in a module's `.d.ts`; `up` leads from the module's folder to the output folder. */
export function provenanceDeclaration(id: string, up: string): string {
  return `/** Where this module came from: item id, kind, source sha256, compiler version. */
export declare const provenance: import(${lit(`${up}runtime/provenance.js`)}).ItemProvenance<${lit(id)}>;
`;
}
