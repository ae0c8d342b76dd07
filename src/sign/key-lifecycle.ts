/**
 * A trusted key's lifecycle (decisions.md #26): an entry of a trust store may say that its key is
 * revoked, expires (or was superseded by a successor) at a time, or is not valid before a time.
 *
 * Every limit is judged against the time of the check (the clock, or the `now` a caller pins), never
 * against the timestamp inside what was signed: that timestamp is the signer's own claim (and our
 * builds take it from SOURCE_DATE_EPOCH or the sources, often the epoch), so a key used after its
 * expiry could simply write an earlier one. A revoked key is refused whatever the time: whoever holds
 * it could sign anything with any date. Limits from every entry naming the same key all apply, so a
 * revocation in the user store also stops a key pinned elsewhere.
 */

/** One limit on a key, with the trust entry that set it (a file path, or the anchor's label). */
export interface KeyLimit {
  /** `refused`: an entry naming the key does not parse or does not authenticate (trust-entry.ts), so what it says is unknown. */
  kind: "revoked" | "expires" | "not_before" | "refused";
  /** ISO time (for `revoked`, when it was revoked, if known). */
  at: string | null;
  /** For `expires`: the key that replaced it (`rye keys rotate`). */
  replacedBy?: string;
  entry: string;
  /** For `refused`: what is wrong with the entry. */
  reason?: string;
}

/**
 * Milliseconds of an ISO time, or NaN. A bare date is midnight UTC: ECMAScript reads its date-only
 * forms as UTC (and forms with a time but no offset as local time). Accepts smol-toml's date objects too.
 */
export function timeOf(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "object" && value !== null && typeof (value as { toISOString?: unknown }).toISOString === "function") {
    return Date.parse(String((value as { toISOString(): string }).toISOString()));
  }
  if (typeof value !== "string") return Number.NaN;
  return Date.parse(value);
}

/** `2026-05-01T00:00:00Z` for a time in ms (seconds precision, as signature timestamps). */
export function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * The limits a trusted-key TOML document sets: `revoked` (a time, or true), `expires`, `not_before`,
 * `replaced_by`. A value that is present but not a time is an error: a revocation that cannot be read
 * must not leave the key trusted.
 */
export function parseLimits(raw: Record<string, unknown>, entry: string): KeyLimit[] {
  const limits: KeyLimit[] = [];
  const time = (field: string): string => {
    const ms = timeOf(raw[field]);
    if (Number.isNaN(ms)) throw new Error(`${field} is not a date or time (${JSON.stringify(raw[field])})`);
    return isoSeconds(ms);
  };
  if (raw.revoked !== undefined && raw.revoked !== false) limits.push({ kind: "revoked", at: raw.revoked === true ? null : time("revoked"), entry });
  if (raw.expires !== undefined) {
    const limit: KeyLimit = { kind: "expires", at: time("expires"), entry };
    if (typeof raw.replaced_by === "string") limit.replacedBy = raw.replaced_by;
    limits.push(limit);
  }
  if (raw.not_before !== undefined) limits.push({ kind: "not_before", at: time("not_before"), entry });
  return limits;
}

/** Why `limits` keep a key from vouching at time `now`, naming the entry that did it; null when none does. */
export function keyRefusal(fp: string, limits: readonly KeyLimit[] | undefined, now: Date): string | null {
  if (!limits) return null;
  const t = now.getTime();
  for (const l of limits) {
    if (l.kind === "revoked") return `Key ${fp} is revoked${l.at ? ` (since ${l.at})` : ""} by the trust entry ${l.entry}: nothing it signed is accepted`;
  }
  for (const l of limits) {
    if (l.kind === "refused") {
      return `Key ${fp} is refused: its trust entry ${l.entry} ${l.reason ?? "cannot be read"}, so whether it revokes or limits the key cannot be told; nothing the key signed is accepted until the entry is fixed or removed`;
    }
  }
  for (const l of limits) {
    const at = timeOf(l.at);
    if (l.kind === "expires" && t >= at) {
      return l.replacedBy
        ? `Key ${fp} was superseded by ${l.replacedBy} at ${l.at} (trust entry ${l.entry}): output it signed is no longer accepted`
        : `Key ${fp} expired at ${l.at} (trust entry ${l.entry})`;
    }
    if (l.kind === "not_before" && t < at) return `Key ${fp} is not valid before ${l.at} (trust entry ${l.entry})`;
  }
  return null;
}

/** How to fix a refused key, for messages. */
export const KEY_REFUSED_FIX = "rebuild (or re-sign) with a key that is trusted now; rye keys list shows each key's state";
