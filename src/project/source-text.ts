// How every reader of sources turns a file's bytes into its text.

// The BOM is kept, as Python's `read_text(encoding="utf-8")` keeps it (rye-reference.md §6).
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A source file's bytes as its text: strict UTF-8 (throws on invalid bytes), a BOM kept. */
export function decodeSource(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
