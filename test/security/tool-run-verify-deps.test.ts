// verify_deps (rye-reference.md "Anchor behaviour"): before the spawn, every file of the runtime's
// scope with a listed extension must be signed by a trusted key, so a module planted beside a tool
// (Python's sys.path[0] is the script's folder, Node resolves ./relative imports from it) cannot
// run. A bundle run applies its own scope (BUNDLE_DEPS_SCOPE) when the runtime enables none.
// Every payload writes MARKER; each refusal also asserts MARKER is absent, and each control shows
// the same layout runs when the file is signed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BUNDLE_DEPS_SCOPE, dependencyVerifier } from "../../src/bundle/dependency-verifier.js";
import { executePlan } from "../../src/runtime/exec/execute-plan.js";
import type { ChainPlan } from "../../src/runtime/exec/plan.js";
import { formatTimestamp, signItem } from "../../src/sign/sign-item.js";
import { attackerKey, plantTrustedKey, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const PYTHON = spawnSync("sh", ["-c", "command -v python3"], { encoding: "utf8" }).stdout.trim();
const root = tempDir("rye-verify-deps-");
const MARKER = join(root, "marker");
const userSpace = join(outsideOf(root), "user");
const outside = join(root, "outside");
mkdirSync(outside, { recursive: true });
const trusted = attackerKey(); // a fresh pair, trusted through the user space below
const untrusted = attackerKey();
plantTrustedKey(userSpace, trusted.publicPem);
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => rmSync(MARKER, { force: true }));

const sign = (text: string, file: string, key = trusted.key) => signItem(text, "tool", key, formatTimestamp(new Date()), file);
const pyPayload = `open(${JSON.stringify(MARKER)}, "w").write("x")\n`;
const jsPayload = `require("fs").writeFileSync(${JSON.stringify(MARKER)}, "x");\n`;
const esmPayload = `import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(MARKER)}, "x"); export const n = 1;\n`;

let n = 0;
function toolDir(): string {
  const d = join(root, `case-${n++}`, ".ai", "tools", "t");
  mkdirSync(d, { recursive: true });
  return d;
}

function plan(dir: string, command: string, script: string, verifyDeps: Record<string, unknown> | null): ChainPlan {
  return {
    item_id: "t/tool",
    chain: [],
    validation: { valid: true, issues: [], validated_pairs: 1 },
    root: { item_id: "rye/core/primitives/execute", executor_id: null },
    config: { command, args: ["{tool_path}"], timeout: 20 },
    env_configs: [],
    anchor: null,
    verify_deps: verifyDeps,
    config_resolve: [],
    context: { tool_path: join(dir, script), tool_dir: dir, tool_parent: join(dir, ".."), anchor_path: dir, runtime_lib: "" },
  };
}

async function run(p: ChainPlan, extra: { defaultVerifyDeps?: Record<string, unknown> } = {}) {
  return (await executePlan(p, {}, {
    projectPath: root,
    userSpace,
    systemSpace: "",
    dotenv: null,
    osEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin", PYTHONDONTWRITEBYTECODE: "1" },
    verifyDependency: dependencyVerifier({ spaces: [{ root: userSpace, label: "user" }], env: { HOME: userSpace, USER_SPACE: userSpace } }),
    verifiedFiles: [p.context.tool_path],
    ...extra,
  })) as Record<string, any>;
}

const PY_DEPS = { enabled: true, scope: "anchor", recursive: true, extensions: [".py", ".yaml", ".yml", ".json"], exclude_dirs: ["__pycache__", ".venv", "node_modules", ".git"] };
const NODE_DEPS = { enabled: true, scope: "anchor", recursive: true, extensions: [".js", ".ts", ".mjs", ".cjs", ".yaml", ".yml"], exclude_dirs: ["node_modules", ".git"] };
const PY_TOOL = `import argparse, json\nfrom helper import VALUE\nprint(json.dumps({"success": True, "value": VALUE}))\n`;
const PY_HELPER = `VALUE = "helper"\n`;

interface Row {
  name: string;
  /** Lays out the tool folder; returns the planted file's name (relative) that must be refused. */
  plant(dir: string): string;
}

describe.skipIf(!PYTHON)("python: a module planted beside the tool", () => {
  const layout = (dir: string) => {
    writeFileSync(join(dir, "main.py"), PY_TOOL);
    writeFileSync(join(dir, "helper.py"), sign(PY_HELPER, "helper.py"));
  };
  const ROWS: Row[] = [
    { name: "unsigned argparse.py (shadows the standard library)", plant: (d) => (writeFileSync(join(d, "argparse.py"), pyPayload + "from importlib import import_module\n"), "argparse.py") },
    { name: "unsigned package argparse/__init__.py", plant: (d) => (mkdirSync(join(d, "argparse")), writeFileSync(join(d, "argparse", "__init__.py"), pyPayload), join("argparse", "__init__.py")) },
    { name: "helper.py replaced after signing", plant: (d) => (writeFileSync(join(d, "helper.py"), sign(PY_HELPER, "helper.py") + pyPayload), "helper.py") },
    { name: "helper.py signed by an untrusted key", plant: (d) => (writeFileSync(join(d, "helper.py"), sign(PY_HELPER + pyPayload, "helper.py", untrusted.key)), "helper.py") },
    { name: "json.py as a link to a file outside the scope", plant: (d) => (writeFileSync(join(outside, "json.py"), sign(pyPayload, "json.py")), symlinkSync(join(outside, "json.py"), join(d, "json.py")), "json.py") },
    { name: "a link to a folder outside the scope", plant: (d) => (symlinkSync(outside, join(d, "argparse")), "argparse") },
  ];
  for (const settings of [["runtime verify_deps", PY_DEPS], ["bundle default scope", null]] as const) {
    for (const r of ROWS) {
      it(`${settings[0]}: ${r.name} is refused, nothing runs`, async () => {
        const dir = toolDir();
        layout(dir);
        const planted = r.plant(dir);
        const response = await run(plan(dir, PYTHON, "main.py", settings[1]), settings[1] ? {} : { defaultVerifyDeps: BUNDLE_DEPS_SCOPE });
        expect(response.status).toBe("error");
        expect(response.error).toContain(planted);
        expect(existsSync(MARKER)).toBe(false);
      });
    }
    it(`${settings[0]}: control, signed helpers beside the tool run`, async () => {
      const dir = toolDir();
      layout(dir);
      writeFileSync(join(dir, "notes.txt"), "not code: outside the listed extensions");
      const response = await run(plan(dir, PYTHON, "main.py", settings[1]), settings[1] ? {} : { defaultVerifyDeps: BUNDLE_DEPS_SCOPE });
      expect(response.status).toBe("success");
      expect(response.data.value).toBe("helper");
    });
  }
  it("control: without verify_deps nor a default scope the planted module runs (the hole this closes)", async () => {
    const dir = toolDir();
    layout(dir);
    writeFileSync(join(dir, "argparse.py"), pyPayload);
    await run(plan(dir, PYTHON, "main.py", null));
    expect(existsSync(MARKER)).toBe(true);
  });
});

describe("node: a relative import planted beside the tool", () => {
  const ROWS: [string, string, string, string][] = [
    // [tool file, its text, imported file, payload]
    ["main.mjs", `import { n } from "./helper.mjs"; console.log(JSON.stringify({ success: true, n }));\n`, "helper.mjs", esmPayload],
    ["main.cjs", `const { n } = require("./helper.cjs"); console.log(JSON.stringify({ success: true, n }));\n`, "helper.cjs", jsPayload + "exports.n = 1;\n"],
    ["main.js", `const { n } = require("./lib/helper.js"); console.log(JSON.stringify({ success: true, n }));\n`, join("lib", "helper.js"), jsPayload + "exports.n = 1;\n"],
  ];
  for (const settings of [["runtime verify_deps", NODE_DEPS], ["bundle default scope", null]] as const) {
    for (const [tool, text, helper, payload] of ROWS) {
      it(`${settings[0]}: unsigned ${helper} imported by ${tool} is refused, nothing runs`, async () => {
        const dir = toolDir();
        mkdirSync(join(dir, "lib"), { recursive: true });
        writeFileSync(join(dir, tool), text);
        writeFileSync(join(dir, helper), payload);
        const response = await run(plan(dir, process.execPath, tool, settings[1]), settings[1] ? {} : { defaultVerifyDeps: BUNDLE_DEPS_SCOPE });
        expect(response.status).toBe("error");
        expect(response.error).toContain(helper);
        expect(existsSync(MARKER)).toBe(false);
      });
      it(`${settings[0]}: control, a signed ${helper} runs`, async () => {
        const dir = toolDir();
        mkdirSync(join(dir, "lib"), { recursive: true });
        writeFileSync(join(dir, tool), text);
        writeFileSync(join(dir, helper), sign(helper.endsWith(".mjs") ? "export const n = 1;\n" : "exports.n = 1;\n", helper.replace(/^.*\//, "")));
        const response = await run(plan(dir, process.execPath, tool, settings[1]), settings[1] ? {} : { defaultVerifyDeps: BUNDLE_DEPS_SCOPE });
        expect(response.status).toBe("success");
        expect(response.data.n).toBe(1);
      });
    }
  }
});
