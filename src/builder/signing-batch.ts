// A build thread signs the new modules of a few items back to back, then writes them, instead of one
// file at a time between compiles. Ed25519's precomputed tables then stay in the CPU cache: on the
// machine in docs/performance.md a signature costs ~34 µs in a row against ~45 µs after other work,
// and one is made per module, 10.5k at 10k directives.
import type { FileRecord } from "../cache/build-cache.js";
import { sha256Hex } from "../sign/hash-region.js";
import { carriesSignatureLine } from "../sign/signed-files.js";
import { moduleBody, signBody, type ModuleBody } from "../sign/sign-module.js";
import type { SigningKey } from "../sign/keys.js";

/** Writes one file from its chunks and reports what the open file's stat said. */
export type WriteChunks = (rel: string, chunks: Buffer[]) => { size: number; mtimeMs: number };

interface Pending {
  module: ModuleBody;
  record: FileRecord;
  /** False for a declaration, written as it is (see carriesSignatureLine). */
  signed: boolean;
}

const NO_LINE = Buffer.alloc(0);

/**
 * Items whose modules wait to be signed and written. `file` hands back the file's record at once; it
 * is complete (sha256 of the signed file, size, mtime) when `flush` has written the file, which is
 * before `ready` sees the item that holds it.
 */
export class SigningBatch<T> {
  private files: Pending[] = [];
  private items: T[] = [];

  constructor(
    private readonly key: SigningKey,
    private readonly timestamp: string,
    private readonly write: WriteChunks,
    private readonly ready: (item: T) => void,
    private readonly size = 16,
  ) {}

  /** A file the manifest lists, to write at `rel` (signed first if it is a module); its record is filled in by `flush`. */
  file(rel: string, text: string): FileRecord {
    const record: FileRecord = [rel, "", 0, 0];
    const signed = carriesSignatureLine(rel);
    this.files.push({ module: signed ? moduleBody(text) : asIs(text), record, signed });
    return record;
  }

  /** An item whose files were all handed to `file` (or written already): passed on once they are written. */
  item(item: T): void {
    this.items.push(item);
    if (this.items.length >= this.size) this.flush();
  }

  /** Signs every waiting module, writes them, and passes on the waiting items in the order they came. */
  flush(): void {
    const files = this.files;
    const items = this.items;
    this.files = [];
    this.items = [];
    const signed = files.map((f) => (f.signed ? signBody(f.module, this.key, this.timestamp) : { line: NO_LINE, body: f.module.body, sha256: f.module.hash }));
    files.forEach(({ record }, i) => {
      const { line, body, sha256 } = signed[i]!;
      const st = this.write(record[0], [line, body]);
      record[1] = sha256;
      record[2] = st.size;
      record[3] = st.mtimeMs;
    });
    for (const item of items) this.ready(item);
  }
}

/** A file written without a signature line: its bytes, whose sha256 is the whole file's. */
function asIs(text: string): ModuleBody {
  const body = Buffer.from(text, "utf8");
  return { body, hash: sha256Hex(body) };
}
