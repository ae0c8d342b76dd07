// The verifier and its anchors in-process: which user spaces may vouch, and what a folder check reports.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { verify } from "../../src/index.js";
import { generateKeyPair, signingKeyFrom, writeKeyPair } from "../../src/sign/keys.js";
import { FORMAT_1_MANIFEST, writeSignedOutput } from "../helpers/signed-output.js";
import { loadTrustAnchors, userSpaceRefusal } from "../../src/verify/trust-anchors.js";
import { plantTrustedKey, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

describe("userSpaceRefusal", () => {
  const base = tempDir();
  const home = join(outsideOf(base), "home");
  const repo = join(home, "code", "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, "app", "out"), { recursive: true });
  const out = join(repo, "app", "out");

  test("a home folder above the project's repository vouches only when it is this account's home", () => {
    expect(userSpaceRefusal(home, out, true, { home })).toBeNull();
    expect(userSpaceRefusal(home, out, false, { home })).toBeNull();
    // Any other folder above the project may be the root of the checkout, .git below it or not.
    expect(userSpaceRefusal(home, out, true, { home: null })).toMatch(/a folder above .* no marker in the tree/);
    expect(userSpaceRefusal(join(home, "code"), out, true, { home })).toMatch(/a folder above/);
  });
  test("the working directory's checkout counts, unless it is the account's home or above it", () => {
    const elsewhere = join(base, "elsewhere");
    mkdirSync(join(elsewhere, "w", "sub"), { recursive: true });
    expect(userSpaceRefusal(join(elsewhere, "w"), out, true, { home, cwd: join(elsewhere, "w", "sub") })).toMatch(/a folder above the working directory/);
    expect(userSpaceRefusal(join(elsewhere, "w", "sub"), out, true, { home, cwd: join(elsewhere, "w", "sub") })).toMatch(/inside the working directory/);
    expect(userSpaceRefusal(home, out, true, { home, cwd: home })).toBeNull();
    expect(userSpaceRefusal(home, out, true, { home, cwd: base })).toBeNull();
  });
  test("the checked folder, a folder inside it, or the project holding it does not", () => {
    expect(userSpaceRefusal(out, out)).toMatch(/inside the checked path/);
    expect(userSpaceRefusal(join(out, "keys"), out)).toMatch(/inside the checked path/);
    expect(userSpaceRefusal(join(repo, "app"), out)).toMatch(/the project that holds the checked path/);
    expect(userSpaceRefusal(join(repo, "app", "user"), out)).toMatch(/the project that holds the checked path/);
  });
  test("a folder sharing the checked path's git working tree does not, even above the project", () => {
    expect(userSpaceRefusal(repo, out)).toMatch(/same git working tree/);
    expect(userSpaceRefusal(join(repo, "tools"), out)).toMatch(/same git working tree/);
  });
  test("a bundle's folder and, for a bundle inside an output folder, the project above it", () => {
    writeFileSync(join(out, "manifest.json"), "{}");
    expect(userSpaceRefusal(join(repo, "app"), join(out, "bundle.mjs"))).toMatch(/the project that holds/);
    expect(userSpaceRefusal(home, join(out, "bundle.mjs"), true, { home })).toBeNull();
  });
  test("an out link into another folder is judged both as named and as resolved", () => {
    const project = join(base, "p2");
    mkdirSync(join(project, ".gen", "a"), { recursive: true });
    symlinkSync(join(project, ".gen", "a"), join(project, "out"));
    expect(userSpaceRefusal(join(project, "user"), join(project, "out"))).toMatch(/the project that holds/);
  });
});

describe("loadTrustAnchors", () => {
  test("reads pinned keys, this machine's key and the user space's store; never the project's", () => {
    const base = tempDir();
    // In a tree of its own: a folder beside the project, under the same temporary folder, is a folder of its checkout.
    const home = join(tempDir(), "home");
    const project = join(base, "project");
    mkdirSync(join(project, "out"), { recursive: true });
    const mine = generateKeyPair();
    writeKeyPair(join(home, ".ai", "config", "keys", "signing"), mine);
    const friend = generateKeyPair();
    plantTrustedKey(home, friend.publicPem);
    const pinned = generateKeyPair();
    writeFileSync(join(base, "ci.pem"), pinned.publicPem);
    const planted = generateKeyPair();
    plantTrustedKey(project, planted.publicPem);
    const a = loadTrustAnchors({ checkedPath: join(project, "out"), env: { USER_SPACE: home, RYE_TRUSTED_KEYS: join(base, "ci.pem") }, cwd: base });
    const fp = (pem: string) => signingKeyFrom(pem).fingerprint;
    const sources = new Map(a.store.list().map((k) => [k.fingerprint, k.source]));
    expect(sources.get(fp(mine.privatePem))).toBe("this machine's signing key");
    expect(sources.get(signingKeyFrom(pinned.privatePem).fingerprint)).toBe("RYE_TRUSTED_KEYS");
    expect(sources.has(signingKeyFrom(friend.privatePem).fingerprint)).toBe(true);
    expect(sources.has(signingKeyFrom(planted.privatePem).fingerprint)).toBe(false);
    // A --trusted-key that does not exist is reported, not silently ignored.
    const missing = loadTrustAnchors({ checkedPath: join(project, "out"), trustedKeys: ["nope.pem"], env: { USER_SPACE: home }, cwd: base });
    expect(missing.warnings.join("\n")).toMatch(/--trusted-key: .*nope\.pem does not exist/);
  });
});

describe("verify() on an output folder", () => {
  function build() {
    const dir = tempDir();
    const out = join(dir, "out");
    mkdirSync(join(out, "directives"), { recursive: true });
    const pair = generateKeyPair();
    const key = signingKeyFrom(pair.privatePem);
    const ts = "2026-01-01T00:00:00Z";
    writeSignedOutput(out, { "directives/a.js": ["export const id = 'a';\n", "a"], "directives/b.js": ["export const id = 'b';\n", "b"] }, key, ts);
    writeFileSync(join(out, "package.json"), JSON.stringify({ type: "module", private: true }, null, 2) + "\n");
    writeFileSync(join(dir, "key.pem"), pair.publicPem);
    return { dir, out, options: { trustedKeys: [join(dir, "key.pem")], env: { USER_SPACE: join(dir, "nobody") } } };
  }

  test("verifies, naming the anchor; each change is reported by file", async () => {
    const { out, options } = build();
    // The output writer's own files are not build output and not reported.
    mkdirSync(join(out, ".rye", "staging"), { recursive: true });
    writeFileSync(join(out, ".rye", "staging", "leftover.js"), "export {};\n");
    writeFileSync(join(out, ".gitattributes"), "* -text\n");
    const ok = await verify(out, options);
    expect(ok.ok, ok.problems.join("\n")).toBe(true);
    expect(ok.signer?.source).toBe("--trusted-key");
    expect(ok.output!.files.map((f) => [f.path, f.status])).toEqual([["manifest/directives.json", "verified"], ["directives/a.js", "verified"], ["directives/b.js", "verified"], ["package.json", "verified"]]);
    // Without the pinned key, nothing vouches.
    expect((await verify(out, { env: options.env })).problems.join("\n")).toMatch(/Untrusted key/);

    const a = readFileSync(join(out, "directives", "a.js"));
    writeFileSync(join(out, "directives", "a.js"), readFileSync(join(out, "directives", "b.js")));
    writeFileSync(join(out, "directives", "b.js"), a);
    writeFileSync(join(out, "directives", "c.js"), "export {};\n");
    symlinkSync("/etc/hostname", join(out, "directives", "d.js"));
    writeFileSync(join(out, "package.json"), '{ "type": "commonjs" }\n');
    const bad = await verify(out, options);
    expect(bad.ok).toBe(false);
    expect(Object.fromEntries(bad.output!.files.map((f) => [f.path, f.status]))).toEqual({
      "manifest/directives.json": "verified", "directives/a.js": "modified", "directives/b.js": "modified", "directives/c.js": "unlisted", "directives/d.js": "not-a-file", "package.json": "modified",
    });
    rmSync(join(out, "directives", "a.js"));
    expect((await verify(out, options)).output!.files.find((f) => f.path === "directives/a.js")?.status).toBe("missing");
  });

  test("a folder with a build's journal still pending is refused until a build completes it", async () => {
    const { out, options } = build();
    mkdirSync(join(out, ".rye"));
    writeFileSync(join(out, ".rye", "journal.json"), JSON.stringify({ write: ["directives/a.js"], remove: [] }));
    const pending = await verify(out, options);
    expect(pending.ok).toBe(false);
    expect(pending.problems.join("\n")).toMatch(/was interrupted while it replaced the output .*journal\.json is still pending.*\n  Fix: run rye build/s);
    rmSync(join(out, ".rye", "journal.json"));
    expect((await verify(out, options)).ok).toBe(true);
  });

  test("a manifest of the first format (one file listing every module) is refused with a rebuild message", async () => {
    const { out, options } = build();
    writeFileSync(join(out, "manifest.json"), FORMAT_1_MANIFEST);
    const r = await verify(join(out, "manifest.json"), options);
    expect(r.kind).toBe("output");
    expect(r.ok).toBe(false);
    expect(r.problems.join("\n")).toMatch(/is in an older format than this rye reads .*\n  Fix: rebuild with rye build/);
  });

});
