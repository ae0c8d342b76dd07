import { existsSync, readFileSync } from "node:fs";
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
import { expire, list, revoke, rotate, UsageError } from "./keys-lifecycle.js";

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
