// rye's own bookkeeping (the journal, the build cache, the up-to-date stamp, the output record's
// seal, the lock) lives in the checkout, where a pull request can plant any of it. A record is
// acted on only when it carries an HMAC made with a secret that lives outside the checkout (see
// bookkeeping-secret.ts), over its kind, the absolute path it belongs to and its text: a planted
// record, one copied from another project, or one of another kind does not open, and is ignored.
import { createHmac, timingSafeEqual } from "node:crypto";

/** What a record is for: a sealed record of one kind never opens as another. */
export type RecordKind = "journal" | "build-cache" | "up-to-date" | "output-record" | "lock";

const PREFIX = "rye-mac:1:";
/** The MAC line: the prefix and 64 hex digits, then a newline. */
const LINE = PREFIX.length + 64 + 1;

/**
 * Seals and opens records with one secret. `secret` null (no user space outside the checkout to
 * keep one in): nothing opens, so every record is ignored and rebuilt from sources.
 */
export class Bookkeeping {
  constructor(readonly secret: Buffer | null) {}

  /** False when no record can be authenticated (every build is then a cold one). */
  get authenticates(): boolean {
    return this.secret !== null;
  }

  /** `text` with its MAC line in front; `scope` is the absolute path the record belongs to. */
  seal(kind: RecordKind, scope: string, text: string): string {
    return `${PREFIX}${this.mac(kind, scope, text) ?? "0".repeat(64)}\n${text}`;
  }

  /** The text of a record this secret sealed for `kind` and `scope`, else null. */
  open(kind: RecordKind, scope: string, sealed: string | null): string | null {
    if (sealed === null || this.secret === null || sealed.length < LINE || !sealed.startsWith(PREFIX) || sealed[LINE - 1] !== "\n") return null;
    const text = sealed.slice(LINE);
    const hex = sealed.slice(PREFIX.length, LINE - 1);
    // Exactly the form `seal` writes: Buffer.from would also take upper case, or stop at a non-digit.
    if (!/^[0-9a-f]{64}$/.test(hex)) return null;
    const claimed = Buffer.from(hex, "hex");
    const actual = Buffer.from(this.mac(kind, scope, text)!, "hex");
    return claimed.length === actual.length && timingSafeEqual(claimed, actual) ? text : null;
  }

  /** The MAC alone, for a record kept beside the file it vouches for (the output record). */
  mac(kind: RecordKind, scope: string, text: string): string | null {
    if (this.secret === null) return null;
    // NUL cannot occur in a path or a kind, so no two (kind, scope, text) give the same input.
    return createHmac("sha256", this.secret).update(`${kind}\0${scope}\0`).update(text).digest("hex");
  }
}

/** Bookkeeping that authenticates nothing: every record found is ignored. */
export const UNAUTHENTICATED = new Bookkeeping(null);
