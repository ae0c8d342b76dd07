// \`rye keys list | revoke | expire | rotate\`: the lifecycle of trusted keys (decisions.md #26). Each
// edits the trust entries of a space (default: the user space) through src/sign/trust-entries.ts;
// verification enforces what they write (src/sign/key-lifecycle.ts).
import { existsSync, readFileSync, renameSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  fingerprint,
  formatTimestamp,
  generateKeyPair,
  loadSigningKey,
  publicKeyPem,
  signingKeyDir,
  timestampFromEnv,
  userSpace,
  writeKeyPair,
  writeTrustedKey,
  type SigningKey,
} from "../../sign/index.js";
import { isoSeconds, keyRefusal, timeOf } from "../../sign/key-lifecycle.js";
import { TRUST_DIRS } from "../../sign/keys.js";
import { confirmEntryState, findTrustEntry, limitsOf, setEntryFields, trustEntries, type LifecycleField } from "../../sign/trust-entries.js";
import { checkEntryPath } from "../../sign/trust-entry-write.js";
import type { Io } from "../io.js";

/** This machine's signing key, if it has one (entries this command edits are re-signed with it). */
function ownKey(io: Io): SigningKey | undefined {
  const dir = resolve(io.cwd, signingKeyDir(io.env));
  return existsSync(join(dir, "private_key.pem")) ? loadSigningKey(dir) : undefined;
}

/** The time a command records: SOURCE_DATE_EPOCH, else now (entries are the user's, not build output). */
function nowStamp(io: Io): string {
  return timestampFromEnv(io.env) ?? formatTimestamp(new Date());
}

/** A time argument as `2026-05-01T00:00:00Z`, or an error. */
function timeArg(value: string, flag: string): string {
  const ms = timeOf(value);
  if (Number.isNaN(ms)) throw new UsageError(`${flag} ${JSON.stringify(value)} is not an ISO date or time (2026-05-01 or 2026-05-01T12:00:00Z)`);
  return isoSeconds(ms);
}

/** A bad argument: usage is printed, exit code 2. */
export class UsageError extends Error {}

/** The entry a FINGERPRINT or PUBLIC_PEM_FILE argument names in `space`, and its key; a .pem not yet trusted is trusted first. */
function entryFor(arg: string, space: string, io: Io): { path: string; fp: string } {
  const file = resolve(io.cwd, arg);
  if (existsSync(file)) {
    // The key, not the file's spelling of it: any PEM of the same key finds the same entries.
    const pem = publicKeyPem(readFileSync(file, "utf8"));
    const fp = fingerprint(pem);
    const found = findTrustEntry(space, fp);
    if (typeof found !== "string") return { path: found.path, fp };
    const signer = ownKey(io);
    return { path: writeTrustedKey(space, pem, signer ? { signer, timestamp: nowStamp(io) } : {}), fp };
  }
  const found = findTrustEntry(space, arg);
  if (typeof found !== "string") return { path: found.path, fp: found.key!.fingerprint };
  // This machine's own key needs no file: it vouches without an entry, so one is made to carry the limit.
  const own = ownKey(io);
  if (!own || !/^[a-f0-9]{8,16}$/i.test(arg) || !own.fingerprint.startsWith(arg.toLowerCase())) throw new Error(found);
  return { path: writeTrustedKey(space, own.publicPem, { signer: own, timestamp: nowStamp(io) }), fp: own.fingerprint };
}

function setFields(args: string[], io: Io, fields: (positionals: string[], at: string | undefined) => Partial<Record<LifecycleField, string | null>>, verb: string): number {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { space: { type: "string" }, at: { type: "string" } } });
  if (positionals.length === 0) throw new UsageError(`rye keys ${verb} needs a key: FINGERPRINT or PUBLIC_PEM_FILE`);
  const space = resolve(io.cwd, values.space ?? userSpace(io.env));
  const entry = entryFor(positionals[0]!, space, io);
  const set = fields(positionals, values.at === undefined ? undefined : timeArg(values.at, "--at"));
  setEntryFields(entry.path, set, ownKey(io), nowStamp(io));
  // Success is what every verifier will read back, not what was meant to be written.
  confirmEntryState(space, entry.path, entry.fp, { revoked: set.revoked !== undefined, ...(set.expires ? { expires: set.expires } : {}) });
  const what = Object.entries(set).map(([k, v]) => `${k} = ${v}`).join(", ");
  io.stdout.write(`${verb === "revoke" ? "Revoked" : "Expires"} ${entry.fp} (${what}): ${entry.path}\n`);
  return 0;
}

export function revoke(args: string[], io: Io): number {
  return setFields(args, io, (_p, at) => ({ revoked: at ?? nowStamp(io) }), "revoke");
}

export function expire(args: string[], io: Io): number {
  return setFields(args, io, (p) => {
    if (p.length !== 2) throw new UsageError("rye keys expire takes a key and a time: rye keys expire FINGERPRINT 2026-12-31");
    return { expires: timeArg(p[1]!, "TIME") };
  }, "expire");
}

export function list(args: string[], io: Io): number {
  const { values } = parseArgs({ args, options: { space: { type: "string" }, json: { type: "boolean" } } });
  const space = resolve(io.cwd, values.space ?? userSpace(io.env));
  const now = new Date();
  const entries = trustEntries(space);
  // A key's state is that of every entry naming it, as verification merges them.
  const rows = entries.map((e) => {
    if (!e.key) return { fingerprint: null, owner: null, state: `unreadable: ${e.problem} (while it is here, no signature is accepted)`, path: e.path };
    const limits = limitsOf(entries, e.key.fingerprint);
    const refused = keyRefusal(e.key.fingerprint, limits, now);
    const later = limits?.find((l) => l.kind === "expires");
    const state = refused ?? (later ? `trusted until ${later.at}${later.replacedBy ? ` (then replaced by ${later.replacedBy})` : ""}` : "trusted");
    return { fingerprint: e.key.fingerprint, owner: e.key.owner, state, path: e.path };
  });
  if (values.json) io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else if (rows.length === 0) io.stdout.write(`No trusted keys in ${space}\n`);
  else for (const r of rows) io.stdout.write(`${r.fingerprint ?? "?".repeat(16)}  ${r.owner ?? ""}  ${r.state}\n  ${r.path}\n`);
  return 0;
}

export function rotate(args: string[], io: Io): number {
  const { values } = parseArgs({ args, options: { space: { type: "string" }, from: { type: "string" }, owner: { type: "string" } } });
  const dir = resolve(io.cwd, signingKeyDir(io.env));
  if (!existsSync(join(dir, "private_key.pem"))) throw new Error(`No signing key in ${dir} to rotate. Create one with: rye keys generate`);
  const from = values.from === undefined ? nowStamp(io) : timeArg(values.from, "--from");
  const space = resolve(io.cwd, values.space ?? userSpace(io.env));
  const old = loadSigningKey(dir);
  // Refused before the key is retired: a link on the entries' path must not leave the rotation halfway.
  for (const d of TRUST_DIRS) checkEntryPath(join(space, ...d, `${old.fingerprint}.toml`));
  const pair = generateKeyPair();
  const next = fingerprint(pair.publicPem);
  // The old pair is kept aside, never deleted: output it signed stays checkable until `from`.
  renameSync(join(dir, "private_key.pem"), join(dir, `private_key.${old.fingerprint}.retired.pem`));
  if (existsSync(join(dir, "public_key.pem"))) renameSync(join(dir, "public_key.pem"), join(dir, `public_key.${old.fingerprint}.retired.pem`));
  writeKeyPair(dir, pair);
  const key = loadSigningKey(dir);
  const stamp = nowStamp(io);
  const newPath = writeTrustedKey(space, key.publicPem, { owner: values.owner ?? "local", signer: key, timestamp: stamp });
  const found = findTrustEntry(space, old.fingerprint);
  const oldPath = typeof found === "string" ? writeTrustedKey(space, old.publicPem, { owner: "local", signer: key, timestamp: stamp }) : found.path;
  setEntryFields(oldPath, { expires: from, replaced_by: next }, key, stamp);
  confirmEntryState(space, oldPath, old.fingerprint, { expires: from });
  io.stdout.write(
    `Rotated the signing key in ${dir}: ${old.fingerprint} → ${next}\n  trusted: ${newPath}\n  ${old.fingerprint} superseded from ${from}: ${oldPath}\n` +
      `Rebuild (rye build) so output is signed with the new key, and pin its public key wherever output is checked: ${join(dir, "public_key.pem")}\n`,
  );
  return 0;
}

