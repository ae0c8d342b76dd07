// A bundle's executor is whatever rye version built it: the CLI refuses hostile caller keys and
// unvouched files beside the tool itself, before the bundle's own code runs (bundle-preflight.ts).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundlePreflight } from "../../src/bundle/bundle-preflight.js";
import { BUNDLE_DEPS_SCOPE, dependencyVerifier } from "../../src/bundle/dependency-verifier.js";
import { CONTEXT_KEYS, INJECTED_KEYS } from "../../src/runtime/exec/caller-params.js";
import type { ChainPlan } from "../../src/runtime/exec/plan.js";
import { tempDir } from "./helpers.js";

const root = tempDir("rye-preflight-");
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dir = join(root, ".ai", "tools", "t");
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "main.py"), "print('{}')\n");
const plan: Partial<ChainPlan> = {
  config: { command: "python3", args: ["-c", "{code}"], code: "print(1)" },
  anchor: null,
  verify_deps: null,
  context: { tool_path: ".ai/tools/t/main.py", tool_dir: ".ai/tools/t", tool_parent: ".ai/tools", anchor_path: ".ai/tools/t", runtime_lib: "" },
  files: [{ item_id: "t/main", path: ".ai/tools/t/main.py", sha256: "x", signed: false }],
};
const options = { projectPath: root, defaultVerifyDeps: BUNDLE_DEPS_SCOPE, verifyDependency: dependencyVerifier({ spaces: [], env: { HOME: root, USER_SPACE: root } }) };

describe("bundle preflight", () => {
  for (const key of [...CONTEXT_KEYS, ...INJECTED_KEYS, "code", "cwd", "input_data"]) {
    it(`refuses a caller '${key}'`, () => {
      expect(bundlePreflight(plan, { [key]: "/elsewhere" }, undefined, options)).toContain(`'${key}'`);
    });
  }
  it("lets a declared parameter through, and passes a clean tool folder", () => {
    expect(bundlePreflight(plan, { code: "print(2)" }, { properties: { code: { type: "string" } } }, options)).toBeNull();
  });
  it("refuses an unsigned module planted beside the tool, naming it", () => {
    writeFileSync(join(dir, "argparse.py"), "open('/tmp/x','w')\n");
    expect(bundlePreflight(plan, {}, undefined, options)).toContain("argparse.py");
    rmSync(join(dir, "argparse.py"));
    expect(bundlePreflight(plan, {}, undefined, options)).toBeNull();
  });
});
