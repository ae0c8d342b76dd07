// Vitest's file-system module cache (`experimental.fsModuleCache`) hands its workers transformed
// code kept in node_modules/.experimental-vitest-cache, a folder a checkout can carry, without
// calling any plugin's load hook. A cached entry for an untouched output module, with a payload
// in it, would run while the file on disk verifies. The rye-build/vite plugin keeps build output
// out of that cache: every output module is read, and verified, on every run.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, markerRan, node } from "./helpers.js";
import { setUpVitestProject, VITEST, vitestProject } from "./vitest-project.js";

// One config for both runs (the cache key covers the config file): NO_CACHE_RULE drops the plugin's cache rule.
const CONFIG = `import { ryeVerify } from "rye-build/vite";
const plugin = ryeVerify();
if (process.env.NO_CACHE_RULE) delete plugin.configureVitest;
export default { plugins: [plugin], test: { include: ["t/**/*.test.mjs"], experimental: { fsModuleCache: true } } };
`;
const COMMENT = "\n//# vitestCache=";

describe("Vitest's file-system module cache and build output", () => {
  const layout = vitestProject("rye-load-vitest-cache-");
  const { project, home, marker, greet } = layout;
  const cache = join(project, "node_modules", ".experimental-vitest-cache");

  beforeAll(() => {
    setUpVitestProject(layout);
    writeFileSync(join(project, "vitest.config.mjs"), CONFIG);
  }, 60_000);

  function vitest(cacheRule: boolean) {
    const env = cleanEnv({ USER_SPACE: home, NODE_OPTIONS: "--import rye-build/register", ...(cacheRule ? {} : { NO_CACHE_RULE: "1" }) });
    const r = node(project, env, VITEST, "run", "--no-color");
    return { ...r, all: r.stdout + r.stderr };
  }

  /** Each cache entry's file and the module id its trailing comment names. */
  function entries(): Array<{ file: string; id: string }> {
    if (!existsSync(cache)) return [];
    const files = readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    return files.flatMap((e) => {
      const file = join(e.parentPath, e.name);
      const text = readFileSync(file, "utf8");
      const at = text.lastIndexOf(COMMENT);
      if (at < 0) return [];
      // The meta is stored flattened: the first element's values are indexes of the strings that follow.
      const flat = JSON.parse(Buffer.from(text.slice(at + COMMENT.length), "base64").toString("utf8")) as unknown[];
      return [{ file, id: String(flat[Number((flat[0] as { id: string }).id)]) }];
    });
  }

  test("with the plugin, output modules are never cached (the test file is)", () => {
    rmSync(cache, { recursive: true, force: true });
    const r = vitest(true);
    expect(r.status, r.all).toBe(0);
    const ids = entries().map((e) => e.id);
    expect(ids.some((id) => id.endsWith("greet.test.mjs"))).toBe(true);
    expect(ids.filter((id) => id.includes("/out/"))).toEqual([]);
  }, 120_000);

  test("a planted entry for an untouched output module runs without the cache rule (control), and is never read with it", () => {
    rmSync(cache, { recursive: true, force: true });
    const populate = vitest(false);
    expect(populate.status, populate.all).toBe(0);
    const entry = entries().find((e) => e.id === greet);
    expect(entry, "the cache holds greet.js without the rule").toBeDefined();
    const code = readFileSync(entry!.file, "utf8");
    writeFileSync(entry!.file, `process.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(marker)}, "payload ran");\n${code}`);
    rmSync(marker, { force: true });
    const control = vitest(false);
    expect(control.status, control.all).toBe(0);
    expect(markerRan(marker)).toBe(true);
    rmSync(marker);
    const ruled = vitest(true);
    expect(ruled.status, ruled.all).toBe(0);
    expect(markerRan(marker)).toBe(false);
  }, 180_000);
});
