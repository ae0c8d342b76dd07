import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { build, type SourceFile } from "../../src/index.js";
import { executePlan } from "../../src/runtime/exec/execute-plan.js";
import { plan, which } from "./interpreters-helpers.js";

// Class 1, a value inside an option word: `--name={v}` and `-X{v}` make the value that option's
// argument, and an option's argument may name a program (sort --compress-program=, tar -I, rsync -e),
// be code (sed -e: one letter `e` runs the pattern space) or name hooks (git clone --template=). So
// such a value, even inert, is accepted only for options the program's grammar lists as taking data.

const dir = mkdtempSync(join(tmpdir(), "rye-option-words-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function run(command: string, args: unknown[], params: Record<string, unknown>, config: Record<string, unknown> = {}) {
  return (await executePlan(plan(dir, command, args, config), params, {
    projectPath: dir,
    userSpace: dir,
    systemSpace: "",
    dotenv: null,
    osEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  })) as Record<string, any>;
}

describe("a value spliced into an option word is that option's argument", () => {
  it.skipIf(!which("sort") || !which("sh"))("sort --compress-program={c} with c = sh does not feed the caller's text to sh; no marker", async () => {
    const marker = join(dir, `m${n++}`);
    const text = Array.from({ length: 2500 }, () => `touch ${marker}\n`).join("");
    const r = await run("sort", ["-S", "64k", "--compress-program={c}"], { c: "sh", text }, { input_data: "{text}" });
    expect(r.status).toBe("error");
    expect(String(r.error)).toContain("sort's option --compress-program");
    expect(existsSync(marker)).toBe(false);
  });

  it.skipIf(!which("sed"))("sed -n -e{x} -- {file} with x = e does not run a checkout file's line; no marker", async () => {
    const marker = join(dir, `m${n++}`);
    const notes = `notes${n}`;
    writeFileSync(join(dir, notes), `touch ${marker}\n`);
    const r = await run("sed", ["-n", "-e{x}", "--", "{file}"], { x: "e", file: notes }, { cwd: dir });
    expect(r.status).toBe("error");
    expect(String(r.error)).toContain("sed's option -e");
    expect(existsSync(marker)).toBe(false);
  });

  // Generated: programs x option words that take a program, code or hooks x inert values.
  const NOT_DATA: [string, string][] = [
    ["sort", "--compress-program={v}"], ["sed", "-e{v}"], ["sed", "--expression={v}"], ["tar", "-I{v}"], ["tar", "--use-compress-program={v}"],
    ["rsync", "-e{v}"], ["rsync", "--rsh={v}"], ["git", "--template={v}"], ["git", "-O{v}"], ["git", "--upload-pack={v}"], ["awk", "-f{v}"],
    ["find", "-exec{v}"], ["sort", "-o{v}"], ["sort", "-T{v}"], ["zip", "--unzip-command={v}"], ["less", "-p{v}"],
    ["sort", "-{v}"], ["sort", "--{v}"], ["sort", "-kn{v}"], ["unknown-program", "--opt={v}"],
  ];
  for (const [program, word] of NOT_DATA) {
    for (const value of ["sh", "e", "x"]) {
      it(`refuses ${program} ${word} with v = ${value}, before anything starts; no marker`, async () => {
        const marker = join(dir, `m${n++}`);
        const r = await run(program, [word, `${marker}-never`], { v: value });
        expect(r.status, JSON.stringify(r)).toBe("error");
        expect(String(r.error)).toContain("placeholder '{v}' is spliced into");
        expect(existsSync(`${marker}-never`)).toBe(false);
      });
    }
  }

  it.skipIf(!which("sort") || !which("head"))("options that take data keep taking inert values; after -- a word is no option", async () => {
    const sorted = await run("sort", ["-t,", "-k{key}"], { key: "2", text: "a,2\nb,1\n" }, { input_data: "{text}" });
    expect(sorted.data?.stdout ?? sorted.error).toBe("b,1\na,2\n");
    const head = await run("head", ["--lines={count}"], { count: "1", text: "x\ny\n" }, { input_data: "{text}" });
    expect(head.data?.stdout ?? head.error).toBe("x\n");
    const operand = await run("printf", ["%s", "--", "-x{v}"], { v: "sh" });
    expect(operand.status, JSON.stringify(operand)).not.toBe("error");
  });
});

describe("the build refuses a caller's value in an option word that does not take data (RYE4012)", () => {
  const sources = (args: string): SourceFile[] => [
    { kind: "tool", id: "rye/core/primitives/execute", path: ".ai/tools/rye/core/primitives/execute.yaml", ext: ".yaml", space: "project", text: "tool_type: primitive\nexecutor_id: null\n" },
    { kind: "tool", id: "rt/sort", path: ".ai/tools/rt/sort.yaml", ext: ".yaml", space: "project", text: `tool_type: runtime\nexecutor_id: rye/core/primitives/execute\nconfig:\n  command: sort\n  args: ${args}\n  input_data: "{text}"\n` },
    { kind: "tool", id: "demo/sort", path: ".ai/tools/demo/sort.py", ext: ".py", space: "project", text: '__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "rt/sort"\nCONFIG_SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}, "c": {"type": "string"}}}\n' },
  ];
  const codes = (args: string) => build(sources(args), "test").diagnostics.filter((d) => d.code === "RYE4012" || d.code === "RYE4013");

  it("--compress-program={c} is RYE4012; -t{c} stays RYE4013 (inert only); after -- it is an operand", () => {
    const refused = codes('["-S", "64k", "--compress-program={c}"]');
    expect(refused.map((d) => d.code)).toContain("RYE4012");
    expect(refused.find((d) => d.code === "RYE4012")!.message).toMatch(/sort's option --compress-program/);
    expect(codes('["-t{c}", "-k2"]').map((d) => d.code)).toEqual(["RYE4013"]);
    expect(codes('["--", "-x{c}"]').map((d) => d.code)).toEqual(["RYE4013"]);
  });
});
