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
import { findTrustEntry, setEntryFields, trustEntries, type LifecycleField, type TrustEntry } from "../../sign/trust-entries.js";
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

/** The entry a FINGERPRINT or PUBLIC_PEM_FILE argument names in `space`; a .pem not yet trusted is trusted first. */
function entryFor(arg: string, space: string, io: Io): TrustEntry {
  const file = resolve(io.cwd, arg);
  if (existsSync(file)) {
    const pem = publicKeyPem(readFileSync(file, "utf8"));
    const found = findTrustEntry(space, fingerprint(pem));
    if (typeof found !== "string") return found;
    const signer = ownKey(io);
    const path = writeTrustedKey(space, pem, signer ? { signer, timestamp: nowStamp(io) } : {});
    const again = findTrustEntry(space, fingerprint(pem));
    return typeof again === "string" ? { path, key: null } : again;
  }
  const found = findTrustEntry(space, arg);
  if (typeof found !== "string") return found;
  // This machine's own key needs no file: it vouches without an entry, so one is made to carry the limit.
  const own = ownKey(io);
  if (!own || !/^[a-f0-9]{8,16}$/i.test(arg) || !own.fingerprint.startsWith(arg.toLowerCase())) throw new Error(found);
  const path = writeTrustedKey(space, own.publicPem, { signer: own, timestamp: nowStamp(io) });
  return { path, key: null };
}

function setFields(args: string[], io: Io, fields: (positionals: string[], at: string | undefined) => Partial<Record<LifecycleField, string | null>>, verb: string): number {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { space: { type: "string" }, at: { type: "string" } } });
  if (positionals.length === 0) throw new UsageError(`rye keys ${verb} needs a key: FINGERPRINT or PUBLIC_PEM_FILE`);
  const space = resolve(io.cwd, values.space ?? userSpace(io.env));
  const entry = entryFor(positionals[0]!, space, io);
  const set = fields(positionals, values.at === undefined ? undefined : timeArg(values.at, "--at"));
  setEntryFields(entry.path, set, ownKey(io), nowStamp(io));
  const what = Object.entries(set).map(([k, v]) => `${k} = ${v}`).join(", ");
  io.stdout.write(`${verb === "revoke" ? "Revoked" : "Expires"} ${entry.key?.fingerprint ?? positionals[0]} (${what}): ${entry.path}\n`);
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
  const rows = trustEntries(space).map((e) => {
    if (!e.key) return { fingerprint: null, owner: null, state: `unreadable: ${e.problem}`, path: e.path };
    const refused = keyRefusal(e.key.fingerprint, e.key.limits, now);
    const later = e.key.limits?.find((l) => l.kind === "expires");
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
  io.stdout.write(
    `Rotated the signing key in ${dir}: ${old.fingerprint} → ${next}\n  trusted: ${newPath}\n  ${old.fingerprint} superseded from ${from}: ${oldPath}\n` +
      `Rebuild (rye build) so output is signed with the new key, and pin its public key wherever output is checked: ${join(dir, "public_key.pem")}\n`,
  );
  return 0;
}

