// Trust entries are read by one reader and written by one writer, and a key is its bytes:
//  1. an entry that names a key but does not parse, has a field that does not parse, or fails its
//     own signature check refuses that key for every consumer (verify, the loader, the signer's own
//     check, rye keys list), whichever anchor brings the key; it is never dropped with its limits;
//  2. rye keys revoke | expire rewrite an entry from its parsed form and read it back, so no field
//     can land inside a multi-line string while rye reports success;
//  3. every PEM spelling of one key has the key's one fingerprint, so revoking one spelling holds
//     for all, and a signature line naming another spelling's text hash names no trusted key.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { beforeAll, describe, expect, test } from "vitest";
import { run as keysCommand } from "../../src/cli/commands/keys.js";
import { keyRefusal } from "../../src/sign/key-lifecycle.js";
import { fingerprint, generateKeyPair, loadSigningKey, signingKeyFrom, writeKeyPair, type SigningKey } from "../../src/sign/keys.js";
import { machineKeyRefusal } from "../../src/sign/machine-key-state.js";
import { signItem } from "../../src/sign/sign-item.js";
import { confirmEntryState, setEntryFields } from "../../src/sign/trust-entries.js";
import { withFields } from "../../src/sign/trust-entry.js";
import { formatTrustedKeyToml, loadTrustStore } from "../../src/sign/trust-store.js";
import { loadTrustAnchors } from "../../src/verify/trust-anchors.js";
import { cleanEnv, inject, makeGreetProject, markerRan, node, resignOutput, rye, tempDir, writeApp } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const TS = "2026-01-01T00:00:00Z";
const trustedDir = (space: string) => join(space, ".ai", "config", "keys", "trusted");

/** A revocation of `subject`, signed by `signer` as rye keys revoke writes it. */
const revocation = (subject: string, signer: SigningKey, extra: Record<string, string> = {}) =>
  signItem(withFields(formatTrustedKeyToml(subject, { owner: "mallory" }), { revoked: TS, ...extra }), "config", signer, TS, "key.toml");
const unsigned = (text: string) => text.replace(/^# rye:signed:.*\n/, "");

/** Every way an entry that revokes `subject` can fail to parse or authenticate; `unreadable` when it names no key at all. */
const BROKEN: Array<{ name: string; text: (subject: string, signer: SigningKey, other: string) => string; unreadable?: boolean }> = [
  { name: "a comment appended after signing", text: (s, k) => `${revocation(s, k)}# leaked 2026-11-27, see the ticket\n` },
  { name: "the owner edited after signing", text: (s, k) => revocation(s, k).replace('owner = "mallory"', 'owner = "m"') },
  { name: "the revocation time edited after signing", text: (s, k) => revocation(s, k).replace(`revoked = "${TS}"`, 'revoked = "2026-01-02T00:00:00Z"') },
  { name: "a forged signature", text: (s, k) => revocation(s, k).replace(/:[A-Za-z0-9_-]{86}:/, `:${"A".repeat(86)}:`) },
  { name: "revoked not a date, unsigned", text: (s, k) => unsigned(revocation(s, k)).replace(/^revoked = .*$/m, 'revoked = "yes, leaked"') },
  { name: "revoked not a date, signed", text: (s, k) => signItem(unsigned(revocation(s, k)).replace(/^revoked = .*$/m, 'revoked = "yes, leaked"'), "config", k, TS, "key.toml") },
  { name: "revoked a number", text: (s, k) => unsigned(revocation(s, k)).replace(/^revoked = .*$/m, "revoked = 5") },
  { name: "a valid revocation beside an expiry that is not a date", text: (s, k) => unsigned(revocation(s, k, { expires: "soon" })) },
  { name: "a valid revocation beside a not_before that is not a date", text: (s, k) => unsigned(revocation(s, k, { not_before: "2026-13-45" })) },
  { name: "a declared fingerprint of another key", text: (s, k, o) => unsigned(revocation(s, k)).replace(/^fingerprint = .*$/m, `fingerprint = "${o}"`) },
  {
    name: "a PEM that is no key, under the key's declared fingerprint",
    text: (s, k) => unsigned(revocation(s, k)).replace(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/, "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"),
  },
  { name: "TOML that does not parse", text: (s, k) => unsigned(revocation(s, k)).replace(/^revoked = .*$/m, "revoked = "), unreadable: true },
];

describe("an entry that does not parse or authenticate refuses its key everywhere (no signed output of it imports)", () => {
  let base: string;
  let project: string;
  let marker: string;
  let mallory: SigningKey;
  let malloryPem: string;
  let victimHome: string;
  let victim: SigningKey;

  beforeAll(() => {
    base = tempDir("rye-entry-classes-");
    project = makeGreetProject(join(base, "proj"));
    const malloryHome = join(base, "mallory-home");
    const built = rye(project, cleanEnv({ USER_SPACE: malloryHome }), "build");
    expect(built.status, built.stderr).toBe(0);
    mallory = loadSigningKey(join(malloryHome, ".ai", "config", "keys", "signing"));
    marker = join(base, "PWNED");
    inject(join(project, "out", "directives", "examples", "greet.js"), marker);
    resignOutput(join(project, "out"), mallory);
    writeApp(project);
    malloryPem = join(base, "mallory.pem");
    writeFileSync(malloryPem, mallory.publicPem);
    victimHome = join(outsideOf(base), "victim-home");
    const pair = generateKeyPair();
    writeKeyPair(join(victimHome, ".ai", "config", "keys", "signing"), pair);
    victim = signingKeyFrom(pair.privatePem);
  }, 120_000);

  /** The victim's store: its own key (signed by itself, so entries it signed are checked) and `entry`. */
  const store = (entry: string | null) => {
    const dir = trustedDir(victimHome);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "victim.toml"), signItem(formatTrustedKeyToml(victim.publicPem), "config", victim, TS, "key.toml"));
    writeFileSync(join(dir, "mallory.toml"), entry ?? signItem(formatTrustedKeyToml(mallory.publicPem, { owner: "mallory" }), "config", victim, TS, "key.toml"));
  };
  // Mallory's key arrives by a pin; the user space's entry is what must take it away.
  const env = () => cleanEnv({ USER_SPACE: victimHome, RYE_TRUSTED_KEYS: malloryPem });

  test("control: with a plain entry the pinned key's output verifies (the payload is live); a clean revocation refuses it", () => {
    store(null);
    expect(rye(project, env(), "verify", "out").status).toBe(0);
    store(revocation(mallory.publicPem, victim));
    const r = rye(project, env(), "verify", "out");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`Key ${mallory.fingerprint} is revoked`);
  }, 60_000);

  test.each(BROKEN)("$name: verify refuses, the loader imports nothing, keys list does not say trusted", ({ text, unreadable }) => {
    store(text(mallory.publicPem, victim, victim.fingerprint));
    const r = rye(project, env(), "verify", "out");
    expect(r.status, r.stdout).toBe(1);
    expect(r.stdout).toMatch(unreadable ? /Trust store entry cannot be read: .*mallory\.toml/ : new RegExp(`Refused key ${mallory.fingerprint}[\\s\\S]*mallory\\.toml`));
    const app = node(project, env(), "--import", "rye-build/register", "app.mjs");
    expect(app.status).not.toBe(0);
    expect(app.stdout).toBe("");
    expect(markerRan(marker)).toBe(false);
    const list = JSON.parse(rye(project, env(), "keys", "list", "--json").stdout) as Array<{ fingerprint: string | null; state: string; path: string }>;
    const rows = list.filter((row) => row.path.endsWith("mallory.toml"));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.state).not.toMatch(/^trusted/);
  }, 60_000);

  test.each(BROKEN)("$name, about this machine's key: the signer refuses to sign, and verification agrees", async ({ text }) => {
    const space = tempDir("rye-entry-machine-");
    const dir = trustedDir(space);
    mkdirSync(dir, { recursive: true });
    const own = generateKeyPair();
    writeKeyPair(join(space, ".ai", "config", "keys", "signing"), own);
    const key = signingKeyFrom(own.privatePem);
    writeFileSync(join(dir, "own.toml"), text(key.publicPem, key, mallory.fingerprint));
    const e = cleanEnv({ USER_SPACE: space });
    expect(await machineKeyRefusal(e, space)).toMatch(/revoked|refused|cannot be read/);
    const anchors = loadTrustAnchors({ checkedPath: join(tempDir("rye-entry-checked-"), "out"), env: e, cwd: base });
      expect(anchors.consulted.join("\n")).not.toContain("refused");
    const judged = anchors.store.unreadable.length > 0 || keyRefusal(key.fingerprint, anchors.store.get(key.fingerprint)?.limits, new Date()) !== null;
    expect(judged).toBe(true);
  });
});

/** A fake terminal for the keys command, run in-process. */
function io(env: NodeJS.ProcessEnv, cwd: string) {
  const out = { stdout: "", stderr: "" };
  return { out, io: { cwd, env, stdout: { write: (s: string) => ((out.stdout += s), true) }, stderr: { write: (s: string) => ((out.stderr += s), true) } } as never };
}

// Multi-line values that hold what a line-based editor would take for the table or a field.
const HOSTILE = ["[public_key]", "[x]", "revoked = false", 'expires = "2999-01-01"', "  [public_key]", "pem = '''", "# rye:signed:x", "[[a]]"];

describe("rye keys revoke / expire rewrite the parsed entry and confirm it", () => {
  test.each(HOSTILE.flatMap((line) => (["basic", "literal"] as const).map((quote) => ({ line, quote }))))(
    "an attestation holding $line ($quote multi-line string): revoke and expire land on the key, or fail",
    async ({ line, quote }) => {
      const space = tempDir("rye-entry-rewrite-");
      const key = signingKeyFrom(generateKeyPair().privatePem);
      const q = quote === "basic" ? '"""' : "'''";
      const entry = formatTrustedKeyToml(key.publicPem, { owner: "owner" }).replace('attestation = ""', `attestation = ${q}\nhanded over by its owner:\n${line}\n${q}`);
      mkdirSync(trustedDir(space), { recursive: true });
      const path = join(trustedDir(space), "owner.toml");
      writeFileSync(path, entry);
      const env = cleanEnv({ USER_SPACE: space });
      let parses = true;
      try {
        parseToml(entry);
      } catch {
        parses = false;
      }
      const revoke = io(env, space);
      const code = await keysCommand(["revoke", key.fingerprint], revoke.io);
      // An entry that does not parse is refused already; rye says it cannot revoke through it, never "Revoked".
      expect(code).toBe(parses ? 0 : 1);
      if (!parses) {
        expect(revoke.out.stdout).toBe("");
        expect(loadTrustStore([space]).unreadable.length).toBe(1);
        return;
      }
      const after = loadTrustStore([space]);
      expect(keyRefusal(key.fingerprint, after.list().find((k) => k.fingerprint === key.fingerprint)?.limits, new Date())).toMatch(/is revoked/);
      const attestation = after.list().find((k) => k.fingerprint === key.fingerprint)?.attestation ?? "";
      expect(attestation).toContain(line);
      const expire = io(env, space);
      expect(await keysCommand(["expire", key.fingerprint, "2020-01-01"], expire.io)).toBe(0);
      expect(keyRefusal(key.fingerprint, loadTrustStore([space]).get(key.fingerprint)?.limits, new Date())).toMatch(/is revoked/);
      expect(readFileSync(path, "utf8")).toMatch(/^expires = "2020-01-01T00:00:00Z"$/m);
    },
  );

  test("an edit that does not read back as meant is an error, not a success", () => {
    const space = tempDir("rye-entry-confirm-");
    const key = signingKeyFrom(generateKeyPair().privatePem);
    mkdirSync(trustedDir(space), { recursive: true });
    const path = join(trustedDir(space), "k.toml");
    writeFileSync(path, formatTrustedKeyToml(key.publicPem));
    expect(() => confirmEntryState(space, path, key.fingerprint, { revoked: true })).toThrow(/does not read back as revoked/);
    setEntryFields(path, { revoked: TS }, undefined, TS);
    expect(() => confirmEntryState(space, path, key.fingerprint, { revoked: true })).not.toThrow();
    writeFileSync(path, readFileSync(path, "utf8").replace("[public_key]", "revoked = 1\n[public_key]"));
    expect(() => confirmEntryState(space, path, key.fingerprint, { revoked: true })).toThrow(/does not read back/);
  });
});

/** Spellings of one PEM: line widths, surrounding text, blank lines. */
function spellings(pem: string): Array<[string, string]> {
  const b64 = pem.split("\n")[1]!;
  const wrap = (n: number) => `-----BEGIN PUBLIC KEY-----\n${b64.match(new RegExp(`.{1,${n}}`, "g"))!.join("\n")}\n-----END PUBLIC KEY-----\n`;
  return [
    ["canonical", pem],
    ["wrapped at 40", wrap(40)],
    ["wrapped at 1", wrap(1)],
    ["wrapped at 59", wrap(59)],
    ["with text before and after", `the key of mallory\n${pem}trailer\n`],
    ["with blank lines inside", pem.replace("\n", "\n\n").replace("\n-----END", "\n\n-----END")],
    ["indented", pem.split("\n").map((l) => (l ? `  ${l}` : l)).join("\n")],
  ];
}

describe("a key has one fingerprint, whatever its PEM spelling", () => {
  const key = signingKeyFrom(generateKeyPair().privatePem);
  test.each(spellings(key.publicPem))("%s: same fingerprint; an entry in that spelling is revoked by the canonical .pem, and its text hash names no trusted key", async (_name, spelled) => {
    expect(fingerprint(spelled)).toBe(key.fingerprint);
    const space = tempDir("rye-entry-spelling-");
    mkdirSync(trustedDir(space), { recursive: true });
    const textFp = (await import("node:crypto")).createHash("sha256").update(`${spelled.trim()}\n`).digest("hex").slice(0, 16);
    // The entry as its owner handed it over: their spelling, labelled with the hash of their text.
    const entry = `version = "1.0.0"\ncategory = "keys/trusted"\nfingerprint = "${textFp}"\nowner = "mallory"\nattestation = ""\n\n[public_key]\npem = """\n${spelled.trim()}\n"""\n`;
    writeFileSync(join(trustedDir(space), "mallory.toml"), entry);
    const before = loadTrustStore([space]);
    expect(before.get(key.fingerprint)?.owner).toBe("mallory");
    if (textFp !== key.fingerprint) expect(before.get(textFp)).toBeUndefined();
    const pemFile = join(space, "mallory.pem");
    writeFileSync(pemFile, key.publicPem);
    const r = io(cleanEnv({ USER_SPACE: space }), space);
    expect(await keysCommand(["revoke", pemFile], r.io)).toBe(0);
    const after = loadTrustStore([space]);
    expect(keyRefusal(key.fingerprint, after.get(key.fingerprint)?.limits, new Date())).toMatch(/is revoked/);
    expect(after.list().filter((k) => k.grants !== false && k.limits === undefined)).toEqual([]);
    // Pinned in yet another spelling, the key is still the revoked one. (Checked from a folder of
    // its own: a user space inside the working directory is no anchor.)
    const anchors = loadTrustAnchors({ checkedPath: join(tempDir("rye-entry-checked-"), "out"), env: cleanEnv({ USER_SPACE: space, RYE_TRUSTED_KEYS: pemFile }), cwd: tempDir("rye-entry-cwd-") });
    expect(keyRefusal(key.fingerprint, anchors.store.get(key.fingerprint)?.limits, new Date())).toMatch(/is revoked/);
  });
});
