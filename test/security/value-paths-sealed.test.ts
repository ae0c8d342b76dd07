import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { executePlan } from "../../src/runtime/exec/execute-plan.js";
import { plan, which } from "./interpreters-helpers.js";

// Class 1, single pass for every value: rye's own paths come from the file system, so a folder
// named `{text}` or `{env}` is a value like a caller's, never a template. The executor's `{param}`
// passes see each path as one opaque token; the spawned argv holds the folder's name byte for byte,
// and the program a path names is the file rye checked, never one the caller's value chose.

const root = mkdtempSync(join(tmpdir(), "rye-paths-sealed-"));
const MARKER = join(root, "marker");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SECRET = "s3cr3t-in-the-environment";

async function runIn(projectPath: string, toolDir: string, command: string, args: unknown[], params: Record<string, unknown>, schemaKeys: string[] = []) {
  const p = plan(toolDir, command, args);
  p.context = { ...p.context, tool_path: join(toolDir, "tool.py") };
  const configSchema = { type: "object", properties: Object.fromEntries(schemaKeys.map((k) => [k, {}])) };
  return (await executePlan(p, params, {
    projectPath,
    userSpace: projectPath,
    systemSpace: "",
    dotenv: null,
    configSchema,
    osEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin", SECRET_TOKEN: SECRET },
  })) as Record<string, any>;
}

const python = which("python3");
if (!python) console.log("skipped: python3 is not installed (the stock runtime's `python3 {tool_path}`)");

describe("rye's paths are sealed before the {param} passes", () => {
  it.skipIf(!python)("a checkout folder named {text} cannot make python3 {tool_path} run a file the caller picks; no marker", async () => {
    const dir = join(root, "{text}");
    mkdirSync(join(dir, "sub"), { recursive: true });
    writeFileSync(join(dir, "tool.py"), "print('the checked tool')\n");
    writeFileSync(join(dir, "sub", "tool.py"), `open(${JSON.stringify(MARKER)}, "w")\n`);
    const r = await runIn(dir, dir, "python3", ["{tool_path}"], { text: "{text}/sub" }, ["text"]);
    expect(r.data?.stdout ?? r.error).toBe("the checked tool\n");
    expect(existsSync(MARKER)).toBe(false);
  });

  it("a folder named {env} puts its own name in argv, never the environment", async () => {
    const dir = join(root, "{env}");
    mkdirSync(dir, { recursive: true });
    const r = await runIn(dir, dir, "printf", ["%s|%s", "{tool_dir}", "{project_path}"], {});
    expect(r.data?.stdout ?? r.error).toBe(`${dir}|${dir}`);
    expect(String(r.data?.stdout)).not.toContain(SECRET);
  });

  it("every path placeholder arrives byte for byte whatever placeholder syntax its folder holds (property)", async () => {
    const piece = fc.constantFrom("{text}", "{env}", "{params_json}", "{tool_path}", "{project_path}", "{x", "}", "${SECRET_TOKEN}", "$", "a", "-", "_");
    const name = fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => `p${p.join("")}`);
    const key = fc.constantFrom("project_path", "tool_dir", "tool_path", "user_space", "anchor_path");
    await fc.assert(
      fc.asyncProperty(name, key, async (n, k) => {
        const dir = join(root, n);
        mkdirSync(dir, { recursive: true });
        const r = await runIn(dir, dir, "printf", ["%s", `{${k}}`], { text: "CALLER" }, ["text"]);
        const expected = k === "tool_path" ? join(dir, "tool.py") : dir;
        expect(r.data?.stdout ?? r.error, n).toBe(expected);
        expect(String(r.data?.stdout)).not.toContain(SECRET);
        expect(String(r.data?.stdout)).not.toContain("CALLER");
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
