// An attacker's checkout: out/ and out/bundle.mjs carry payloads, signed with the attacker's own key,
// and that key is planted where a lookup inside the tree would find it. Nothing may trust it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadSigningKey } from "../../src/sign/keys.js";
import { formatTrustedKeyToml } from "../../src/sign/trust-store.js";
import { cleanEnv, inject, makeProject, markerRan, node, plantTrustedKey, resignBundle, resignOutput, rye, tempDir, writeApp } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

type Layout = "project" | "out" | "ancestor";

/** The clone: `<base>/clone` (a git checkout), the project at its root or in `app/`, built and poisoned by the attacker. */
function attackerCheckout(layout: Layout, git = true) {
  const base = tempDir();
  const clone = join(base, "clone");
  const project = makeProject(layout === "ancestor" ? join(clone, "app") : clone);
  if (git) mkdirSync(join(clone, ".git"), { recursive: true });
  const attackerHome = join(base, "attacker-home");
  const built = rye(project, cleanEnv({ USER_SPACE: attackerHome }), "bundle");
  expect(built.status, built.stderr).toBe(0);
  const key = loadSigningKey(join(attackerHome, ".ai", "config", "keys", "signing"));
  const marker = join(base, "PWNED");
  const out = join(project, "out");
  inject(join(out, "directives", "examples", "greet.js"), marker);
  inject(join(out, "tools", "examples", "word_count.js"), marker);
  inject(join(out, "bundle.mjs"), marker);
  if (layout === "project") plantTrustedKey(project, key.publicPem);
  if (layout === "ancestor") plantTrustedKey(clone, key.publicPem);
  if (layout === "out") {
    plantTrustedKey(out, key.publicPem);
    writeFileSync(join(out, "public_key.pem"), key.publicPem);
    writeFileSync(join(out, "attacker.toml"), formatTrustedKeyToml(key.publicPem, { owner: "attacker" }));
  }
  // Every file, planted keys included, is listed in a manifest the attacker signs: only trust is missing.
  resignOutput(out, key);
  resignBundle(join(out, "bundle.mjs"), key);
  writeApp(project);
  const attackerPem = join(base, "attacker.pem");
  writeFileSync(attackerPem, key.publicPem);
  // The victim's machine: a user space outside the clone, with a key of its own.
  const victimHome = join(outsideOf(base), "victim-home");
  expect(rye(base, cleanEnv({ USER_SPACE: victimHome }), "keys", "generate").status).toBe(0);
  return { base, clone, project, marker, attackerPem, fingerprint: key.fingerprint, victimEnv: cleanEnv({ USER_SPACE: victimHome }) };
}

/** Every verification point refuses the attacker's output and bundle, and no payload runs. */
function expectEverythingRefused(c: ReturnType<typeof attackerCheckout>, env: NodeJS.ProcessEnv) {
  const verifyOut = rye(c.project, env, "verify", "out");
  expect(verifyOut.status).toBe(1);
  expect(verifyOut.stdout).toContain(`Untrusted key ${c.fingerprint}`);
  const verifyBundle = rye(c.project, env, "verify", "out/bundle.mjs");
  expect(verifyBundle.status).toBe(1);
  expect(verifyBundle.stdout).toContain(`Untrusted key ${c.fingerprint}`);
  for (const args of [["directive", "examples/greet", "--inputs", '{"name": "x"}'], ["directive", "no/such/id"], ["tool", "examples/word_count", "--dry-run", "--project", c.project]]) {
    const run = rye(c.project, env, "run", "out/bundle.mjs", ...args);
    expect(run.status, run.stdout).toBe(1);
    expect(run.stderr).toMatch(/^IntegrityError: Untrusted key/);
    expect(markerRan(c.marker)).toBe(false);
  }
  // --project named: a user space that is the project is otherwise no project to discover (a usage error).
  const tool = rye(c.project, env, "run", "tool", "examples/word_count", "--dry-run", "--project", c.project);
  expect(tool.status).toBe(1);
  expect(JSON.parse(tool.stdout).error).toContain(`Untrusted key ${c.fingerprint}`);
  expect(markerRan(c.marker)).toBe(false);
  const app = node(c.project, env, "--import", "rye-build/register", "app.mjs");
  expect(app.status).not.toBe(0);
  expect(app.stderr).toMatch(/IntegrityError/);
  expect(app.stderr).toContain(`Untrusted key ${c.fingerprint}`);
  expect(app.stdout).toBe("");
  expect(markerRan(c.marker)).toBe(false);
}

describe("an attacker's out/ and bundle, signed with the attacker's key", () => {
  test.each<Layout>(["project", "out", "ancestor"])("with that key planted in the %s's .ai/: refused everywhere, no payload runs", (layout) => {
    const c = attackerCheckout(layout);
    expectEverythingRefused(c, c.victimEnv);
    // The output is otherwise intact: pinning the attacker's key (as only the victim could) makes it verify.
    expect(rye(c.project, c.victimEnv, "verify", "out", "--trusted-key", c.attackerPem).status).toBe(0);
    // And the payload is live: once its key is pinned, the bundle runs and leaves the marker.
    rye(c.project, c.victimEnv, "run", "out/bundle.mjs", "directive", "examples/greet", "--inputs", '{"name": "x"}', "--trusted-key", c.attackerPem);
    expect(markerRan(c.marker)).toBe(true);
  }, 120_000);

  test("a user space that is the checkout's ancestor folder (a git working tree holding the planted key) does not vouch", () => {
    const c = attackerCheckout("ancestor");
    const env = cleanEnv({ USER_SPACE: c.clone });
    expectEverythingRefused(c, env);
    expect(rye(c.project, env, "verify", "out").stderr).toMatch(/The user space .*clone is not used to verify .*: it is in the same git working tree/);
  }, 120_000);

  test("HOME is the checkout's root, with no .git anywhere (a container): a user space nobody named does not vouch for a sub-project", () => {
    const c = attackerCheckout("ancestor", false);
    // No USER_SPACE: the user space is HOME, which is the clone, and not this account's home folder.
    const env = { PATH: process.env.PATH ?? "", HOME: c.clone };
    expectEverythingRefused(c, env);
    expect(rye(c.project, env, "verify", "out").stderr).toMatch(/it is inside .*clone, a folder above .*: a checkout may fill it/);
  }, 120_000);

  test("a user space that is the project itself does not vouch, git or not", () => {
    const c = attackerCheckout("project");
    const env = cleanEnv({ USER_SPACE: c.project });
    expectEverythingRefused(c, env);
    expect(rye(c.project, env, "verify", "out").stderr).toMatch(/it is inside .*, the project that holds the checked path/);
  }, 120_000);
});
