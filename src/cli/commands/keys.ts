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
import type { Io } from "../io.js";
import { isoSeconds, keyRefusal, timeOf } from "../../sign/key-lifecycle.js";
import { findTrustEntry, setEntryFields, trustEntries, type LifecycleField, type TrustEntry } from "../../sign/trust-entries.js";

const USAGE = `Usage:
  rye keys generate [--force]     create an Ed25519 signing key pair
  rye keys show                   print the signing key's fingerprint and public key
  rye keys trust [--space DIR] [--owner NAME] [PUBLIC_PEM_FILE]
                                  trust a public key (default: your own) in DIR (default: user space)
  rye keys list [--space DIR] [--json]
                                  every trusted key of DIR: fingerprint, owner, state, entry file
  rye keys revoke [--space DIR] [--at TIME] FINGERPRINT|PUBLIC_PEM_FILE
                                  refuse everything the key signed, from now on, whatever its date
  rye keys expire [--space DIR] FINGERPRINT|PUBLIC_PEM_FILE TIME
                                  refuse the key from TIME on (judged at the time of each check)
  rye keys rotate [--space DIR] [--from TIME] [--owner NAME]
                                  make a new signing key, trust it, and mark the old one superseded
                                  by it from TIME (default: now); the old private key is kept aside

Keys live in $RYE_SIGNING_KEY_DIR, or <user space>/.ai/config/keys/signing/ (user space: $USER_SPACE
or the home directory). The private key is written with mode 0600 and never printed. Expiry and
supersession are judged against the clock of whoever verifies, never against the signed timestamp
(the signer's own claim); a revoked key is refused whatever the time.`;

function usage(io: Io, message?: string): number {
  io.stderr.write(`${message ? `${message}\n\n` : ""}${USAGE}\n`);
  return 2;
}

// The original reads the public half from public_key.pem; when only the private key exists, derive it.
function ownPublicPem(dir: string): string {
  const pub = join(dir, "public_key.pem");
  if (existsSync(pub)) return publicKeyPem(readFileSync(pub, "utf8"));
  return loadSigningKey(dir).publicPem;
}

function generate(args: string[], io: Io): number {
  const { values } = parseArgs({ args, options: { force: { type: "boolean" } } });
  const dir = resolve(io.cwd, signingKeyDir(io.env));
  const pair = generateKeyPair();
  writeKeyPair(dir, pair, { force: values.force ?? false });
  io.stdout.write(
    `Generated an Ed25519 key pair in ${dir}\n  fingerprint: ${fingerprint(pair.publicPem)}\n` +
      `  public key:  ${join(dir, "public_key.pem")}\n  private key: ${join(dir, "private_key.pem")} (mode 0600)\n` +
      `Trust it with: rye keys trust\n`,
  );
  return 0;
}

function show(args: string[], io: Io): number {
  parseArgs({ args, options: {} });
  const dir = resolve(io.cwd, signingKeyDir(io.env));
  if (!existsSync(join(dir, "public_key.pem")) && !existsSync(join(dir, "private_key.pem"))) {
    io.stderr.write(`No signing key in ${dir}. Create one with: rye keys generate\n`);
    return 1;
  }
  const pem = ownPublicPem(dir);
  io.stdout.write(`${fingerprint(pem)}\n  key directory: ${dir}\n${pem}`);
  return 0;
}

function trust(args: string[], io: Io): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { space: { type: "string" }, owner: { type: "string" } },
  });
  if (positionals.length > 1) return usage(io, "rye keys trust takes at most one public key file");
  const dir = resolve(io.cwd, signingKeyDir(io.env));
  const pem = positionals[0] === undefined ? ownPublicPem(dir) : publicKeyPem(readFileSync(resolve(io.cwd, positionals[0]), "utf8"));
  const space = resolve(io.cwd, values.space ?? userSpace(io.env));
  // Signed with the user's own key when there is one, as the original does, so later edits to the file show.
  let signer: SigningKey | undefined;
  if (existsSync(join(dir, "private_key.pem"))) signer = loadSigningKey(dir);
  const path = writeTrustedKey(space, pem, {
    owner: values.owner ?? "local",
    ...(signer ? { signer, timestamp: timestampFromEnv(io.env) ?? formatTimestamp(new Date()) } : {}),
  });
  io.stdout.write(`Trusted ${fingerprint(pem)} (owner ${values.owner ?? "local"}): ${path}${signer ? "" : " (unsigned: no signing key)"}\n`);
  return 0;
}

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

class UsageError extends Error {}

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

function revoke(args: string[], io: Io): number {
  return setFields(args, io, (_p, at) => ({ revoked: at ?? nowStamp(io) }), "revoke");
}

function expire(args: string[], io: Io): number {
  return setFields(args, io, (p) => {
    if (p.length !== 2) throw new UsageError("rye keys expire takes a key and a time: rye keys expire FINGERPRINT 2026-12-31");
    return { expires: timeArg(p[1]!, "TIME") };
  }, "expire");
}

function list(args: string[], io: Io): number {
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

function rotate(args: string[], io: Io): number {
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

/** `rye keys generate|show|trust|list|revoke|expire|rotate`: manages the signing key and trusted public keys. */
export async function run(args: string[], io: Io): Promise<number> {
  const [sub, ...rest] = args;
  const commands: Record<string, (a: string[], io: Io) => number> = { generate, show, trust, list, revoke, expire, rotate };
  if (sub === "--help" || sub === "-h") {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const command = sub === undefined ? undefined : commands[sub];
  if (!command) return usage(io, sub === undefined ? "Missing subcommand." : `Unknown subcommand '${sub}'.`);
  try {
    return command(rest, io);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code?.startsWith("ERR_PARSE_ARGS") || e instanceof UsageError) return usage(io, err.message);
    io.stderr.write(`error: ${err.message}\n`);
    return 1;
  }
}
