// Module loading that rye's asynchronous hooks cannot stand in front of: synchronous hooks
// (module.registerHooks, Node ≥ 22.15), whose `load` results are verified by a wrapper, and
// ShadowRealm#importValue, which no hook reaches, where the verifier refuses to start. The wrapper is
// tested on every Node through a stand-in for registerHooks; the real Node 22 row runs when
// RYE_NODE22 names a Node 22 binary.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, test } from "vitest";
import { guardSyncHooks } from "../../src/register/sync-hooks-guard.js";
import { OutputGuard } from "../../src/verify/output-guard.js";
import { cleanEnv, inject, makeProject, markerRan, node, payload, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

describe("synchronous module hooks and ShadowRealm", () => {
  const base = tempDir("rye-sync-hooks-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const index = join(project, "out", "index.js");

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
  }, 60_000);

  test("a later load hook's source for an output file is verified: tampered refused, untouched passed, none refused", () => {
    let hooks: { load: (url: string, context: unknown, next: unknown) => unknown } | undefined;
    const stand = { registerHooks: (h: typeof hooks) => void (hooks = h) };
    const guard = new OutputGuard({ cwd: project, env: { ...env } });
    guardSyncHooks(guard, stand as never);
    const url = pathToFileURL(index).href;
    const text = readFileSync(index, "utf8");
    const tampered = `${text}\n${payload(marker)}`;
    stand.registerHooks({ load: () => ({ format: "module", source: tampered, shortCircuit: true }) });
    expect(() => hooks!.load(url, {}, null)).toThrow(/Content modified since signing/);
    stand.registerHooks({ load: () => ({ format: "module", source: text, shortCircuit: true }) });
    expect(() => hooks!.load(url, {}, null)).not.toThrow();
    stand.registerHooks({ load: () => ({ format: "module", source: null }) });
    expect(() => hooks!.load(url, {}, null)).toThrow(/without its source passing through the verifier/);
    // Files outside output folders are the hook's own business.
    stand.registerHooks({ load: () => ({ format: "module", source: "export {}" }) });
    expect(() => hooks!.load(pathToFileURL(join(project, "app.mjs")).href, {}, null)).not.toThrow();
  });

  test("ShadowRealm enabled: the verifier refuses to start, and nothing of out/ runs", () => {
    const saved = readFileSync(index);
    inject(index, marker);
    rmSync(marker, { force: true });
    try {
      writeFileSync(join(project, "realm.mjs"), `const r = new ShadowRealm();\nawait r.importValue(${JSON.stringify(pathToFileURL(index).href)}, "directives");\n`);
      const r = node(project, env, "--experimental-shadow-realm", "--import", "rye-build/register", "realm.mjs");
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/ShadowRealm is enabled/);
      expect(markerRan(marker)).toBe(false);
    } finally {
      writeFileSync(index, saved);
    }
  }, 60_000);

  const node22 = process.env.RYE_NODE22;
  if (!node22 || !existsSync(node22)) console.log("load-paths-sync-hooks: RYE_NODE22 names no Node 22 binary; the real registerHooks row is skipped");
  test.skipIf(!node22 || !existsSync(node22))("Node 22 registerHooks: a later hook reading out/ itself is refused, and the payload never runs", () => {
    const saved = readFileSync(index);
    inject(index, marker);
    rmSync(marker, { force: true });
    try {
      writeFileSync(join(project, "sync-hook.mjs"), `import { registerHooks } from "node:module";\nimport { readFileSync } from "node:fs";\nimport { fileURLToPath } from "node:url";\nregisterHooks({ load(url, context, nextLoad) {\n  if (url.startsWith("file:") && url.endsWith(".js")) return { format: "module", source: readFileSync(fileURLToPath(url), "utf8"), shortCircuit: true };\n  return nextLoad(url, context);\n} });\nawait import("./out/index.js");\n`);
      const r = spawnSync(node22!, ["--import", "rye-build/register", "sync-hook.mjs"], { cwd: project, env, encoding: "utf8", timeout: 60_000 });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/Content modified since signing/);
      expect(markerRan(marker)).toBe(false);
    } finally {
      writeFileSync(index, saved);
    }
  }, 60_000);
});
