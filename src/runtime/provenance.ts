/**
 * Where a compiled item came from. Each module exports its own facts as a constant (`provenance`):
 * they change only when its source or the compiler does, so a rebuild of one item rewrites only its
 * files. What changes with every build (the signer, the build id) is read once from the signed root
 * manifest (or a bundle's build line) and joined to an item's facts by `provenanceOf`.
 */

/** The kinds of item a build compiles into modules. */
export type ProvenanceKind = "directive" | "knowledge" | "tool";

/** An item module's own facts, written into it at build time (`export const provenance`). */
export interface ItemProvenance<K extends string = string> {
  /** The item id. */
  readonly item: K;
  readonly kind: ProvenanceKind;
  /** sha256 (hex) of the source file's bytes, as the signed manifest and `manifest/sources.txt` list it. */
  readonly source_sha256: string | null;
  /** The version of the compiler that wrote the module. */
  readonly compiler: string;
}

/** The facts of a whole build: who signed it and which build it was. */
export interface BuildProvenance {
  /** Fingerprint of the key that signed the output (16 hex digits). */
  readonly signer: string;
  /** `<sources sha256>/<counter>/<generated_at>`: the signed root manifest's build metadata, in one string. */
  readonly build_id: string;
}

/** One record to log beside a rendered prompt, and to check later with `rye verify --provenance FILE`. */
export type Provenance<K extends string = string> = ItemProvenance<K> & BuildProvenance;

/** The fields of a record, in the order they are written and compared. */
export const PROVENANCE_FIELDS = ["item", "kind", "source_sha256", "compiler", "signer", "build_id"] as const;

/** The build id of a build's signed metadata. */
export function buildIdOf(build: { sources: string; counter: number; generated_at: string }): string {
  return `${build.sources}/${build.counter}/${build.generated_at}`;
}

// `rye:signed:TIME:HASH:SIG:FP`: the fingerprint is the last field.
const SIGNED = /^rye:signed:.+:([a-f0-9]{16})$/;

/**
 * The build's facts from the text of an output's root `manifest.json`. The manifest is read, not
 * verified here: the verifying loader (or `rye verify`) checks it; `rye verify --provenance` checks a record.
 */
export function buildProvenanceOf(manifestText: string): BuildProvenance {
  const root = JSON.parse(manifestText) as { generated_at?: unknown; build?: { sources?: unknown; counter?: unknown }; signature?: unknown };
  const fp = typeof root.signature === "string" ? SIGNED.exec(root.signature)?.[1] : undefined;
  if (!fp || typeof root.generated_at !== "string" || typeof root.build?.sources !== "string" || typeof root.build.counter !== "number") {
    throw new Error("not a signed rye manifest.json (format 3): rebuild the output with rye build");
  }
  return { signer: fp, build_id: buildIdOf({ sources: root.build.sources, counter: root.build.counter, generated_at: root.generated_at }) };
}

/** An item's full record: its module's facts (or the module itself) joined to its build's. */
export function provenanceOf<K extends string>(item: ItemProvenance<K> | { readonly provenance: ItemProvenance<K> }, build: BuildProvenance): Provenance<K> {
  const own = "provenance" in item ? item.provenance : item;
  return { item: own.item, kind: own.kind, source_sha256: own.source_sha256, compiler: own.compiler, signer: build.signer, build_id: build.build_id };
}
