// Bundles carry the build metadata of the output they were made from, in a header line every byte
// of which is signed; and a key revoked after it was stolen stops what the thief signed with it, at
// every load path (rye verify, rye run of the bundle, the Node loader), before any payload runs.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadSigningKey } from "../../src/sign/keys.js";
import { cleanEnv, inject, markerRan, node, resignBundle, resignOutput, rye, tempDir, writeApp, makeGreetProject } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

function bundled() {
  const base = tempDir("rye-fresh-bundle-");
  const root = join(base, "proj");
  makeGreetProject(root);
  const home = join(outsideOf(base), "home");
  const env = cleanEnv({ USER_SPACE: home, RYE_BUILD_COUNTER: "7", SOURCE_DATE_EPOCH: "1777636800" });
  const r = rye(root, env, "bundle");
  expect(r.status, r.stderr).toBe(0);
  return { base, root, home, env, bundle: join(root, "out", "bundle.mjs") };
}

describe("a bundle's build metadata", () => {
  const b = bundled();
  const original = readFileSync(b.bundle, "utf8");

  test("is a signed header line copied from the root manifest", () => {
    const root = JSON.parse(readFileSync(join(b.root, "out", "manifest.json"), "utf8"));
    const line = original.split("\n").find((l) => l.startsWith("// @rye-build "))!;
    expect(JSON.parse(line.slice("// @rye-build ".length))).toEqual({ version: root.version, generated_at: "2026-05-01T12:00:00Z", counter: 7, sources: root.build.sources, compiler: root.build.compiler });
    expect(rye(b.root, b.env, "verify", "--current", "--not-before", "7", "out/bundle.mjs").status).toBe(0);
  });

  test("--not-before and --current refuse it when older or built from other sources", () => {
    const pinned = rye(b.root, b.env, "verify", "--not-before", "8", "out/bundle.mjs");
    expect(pinned.status).toBe(1);
    expect(pinned.stdout).toMatch(/Older than the pinned point: \S*out\/bundle\.mjs was built with counter 7, before --not-before 8/);
    const greet = join(b.root, ".ai", "directives", "examples", "greet.md");
    const text = readFileSync(greet, "utf8");
    writeFileSync(greet, `${text}\nEdited.\n`);
    const current = rye(b.root, b.env, "verify", "--current", "out/bundle.mjs");
    writeFileSync(greet, text);
    expect(current.status).toBe(1);
    expect(current.stdout).toContain(`Not built from the current sources of ${b.root}: ${b.bundle}`);
  });

  test.each([["counter", /"counter":7/, '"counter":70'], ["time", /"generated_at":"2026/, '"generated_at":"2036'], ["sources", /"sources":"[0-9a-f]/, '"sources":"0']])("an edited %s fails the bundle's signature", (_f, from, to) => {
    writeFileSync(b.bundle, original.replace(from, to));
    const r = rye(b.root, b.env, "verify", "out/bundle.mjs");
    writeFileSync(b.bundle, original);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/Content modified since signing: \S*out\/bundle\.mjs/);
  });
});

describe("a stolen key, revoked", () => {
  test("what the thief signed with it is refused everywhere, and no payload runs", () => {
    const b = bundled();
    const key = loadSigningKey(join(b.home, ".ai", "config", "keys", "signing"));
    const marker = join(b.base, "PWNED");
    inject(join(b.root, "out", "directives", "examples", "greet.js"), marker);
    inject(b.bundle, marker);
    resignOutput(join(b.root, "out"), key);
    resignBundle(b.bundle, key);
    writeApp(b.root);
    // Before the revocation the thief's output is trusted (the payload is live): that is what revocation is for.
    expect(rye(b.root, b.env, "verify", "out").status).toBe(0);
    expect(rye(b.root, b.env, "keys", "revoke", key.fingerprint).status).toBe(0);
    const verifyOut = rye(b.root, b.env, "verify", "out");
    expect(verifyOut.status).toBe(1);
    expect(verifyOut.stdout).toContain(`Key ${key.fingerprint} is revoked`);
    const verifyBundle = rye(b.root, b.env, "verify", "out/bundle.mjs");
    expect(verifyBundle.status).toBe(1);
    expect(verifyBundle.stdout).toContain(`Refused key ${key.fingerprint} for ${b.bundle}`);
    const run = rye(b.root, b.env, "run", "out/bundle.mjs", "directive", "examples/greet", "--inputs", '{"name": "x"}');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/IntegrityError: Refused key/);
    const app = node(b.root, b.env, "--import", "rye-build/register", "app.mjs");
    expect(app.status).not.toBe(0);
    expect(app.stderr).toContain(`Key ${key.fingerprint} is revoked`);
    expect(markerRan(marker)).toBe(false);
  });
});
