import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseCommandTemplate } from "../../src/agents/command-template.js";
import { AgentLaunchError, launchAgent } from "../../src/runtime/agents/launch-agent.js";

// No placeholder value may become an option of the agent binary. A stub agent records its argv in a
// file; when a launch is refused the file must not exist (the agent never ran).

const dir = mkdtempSync(join(tmpdir(), "rye-agent-argv-"));
const record = join(dir, "argv.json");
const stub = join(dir, "stub-agent");
writeFileSync(stub, `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`);
chmodSync(stub, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function launch(command: string, values: { prompt?: string; role?: string; model?: string }) {
  rmSync(record, { force: true });
  const { template } = parseCommandTemplate(command);
  try {
    await launchAgent(template!, { bin: stub, model: values.model ?? "m", prompt: values.prompt ?? "p", role: values.role ?? "r" }, { capture: true });
  } catch (e) {
    expect(e).toBeInstanceOf(AgentLaunchError);
    expect(existsSync(record)).toBe(false);
    return { refused: (e as Error).message };
  }
  return { argv: JSON.parse(readFileSync(record, "utf8")) as string[] };
}

describe("hostile {model}, {prompt} and {role} against a stub agent", () => {
  it("refuses an option-like value where it would stand as its own argument, naming the placeholder and the value's start", async () => {
    expect(await launch("{bin} {model} {prompt}", { model: "--dangerously-skip-permissions" })).toEqual({
      refused: `{model} "--dangerously-skip-permi…" starts with '-', so the agent would read it as an option; refused`,
    });
    const prompt = await launch("{bin} --model {model} {prompt}", { prompt: "--dangerously-skip-permissions now" });
    expect(prompt.refused).toMatch(/^\{prompt\} would start argument 3 with '-' \("--dangerously-skip-permi…"\)/);
    const role = await launch("{bin} {role} -p {prompt}", { role: "-rf" });
    expect(role.refused).toMatch(/^\{role\} would start argument 1 with '-'/);
    expect((await launch("{bin} -- {prompt}", { model: "-x" })).refused).toMatch(/^\{model\}/);
    expect((await launch("{bin} -p {prompt}", { model: "m\u0007" })).refused).toMatch(/^\{model\} "m\\u0007" holds a control character/);
  });

  it("warns at build time (RYE7005's problem) where {prompt} or {role} is a bare positional argument, and only there", () => {
    const bare = (command: string) => parseCommandTemplate(command).problems.filter((p) => p.kind === "bare_positional").map((p) => command.slice(p.offset, p.offset + 8));
    expect(bare("{bin} {role} --model {model} {prompt}")).toEqual(["{role} -", "{prompt}"]);
    expect(bare("{bin} --system {role} -p {prompt}")).toEqual([]);
    expect(bare("{bin} --model={model} -- {role} {prompt}")).toEqual([]);
    expect(bare("{bin} x{prompt}")).toEqual([]);
  });

  it("passes the same values after -- or as the value of an option, as exactly one argument", async () => {
    expect(await launch("{bin} --model {model} -p {prompt} --system {role}", { prompt: "--help", role: "-rf /" })).toEqual({ argv: ["--model", "m", "-p", "--help", "--system", "-rf /"] });
    expect(await launch("{bin} --model={model} -- {prompt} {role}", { prompt: "-v", role: "--x" })).toEqual({ argv: ["--model=m", "--", "-v", "--x"] });
  });

  it("property: whatever the values, each arrives as one argument and never where it would be an option", async () => {
    const text = fc.oneof(fc.string({ maxLength: 16 }), fc.constantFrom("-", "--", "-rf", "--dangerously-skip-permissions", "--model=x", "-p", "$(touch x)", "a\nb"));
    const templates: [string, (p: string, r: string) => string[]][] = [
      ["{bin} -p {prompt} --system {role}", (p, r) => ["-p", p, "--system", r]],
      ["{bin} -- {prompt} {role}", (p, r) => ["--", p, r]],
      ["{bin} --system {role} {prompt}", (p, r) => ["--system", r, p]],
      ["{bin} {role} -p {prompt}", (p, r) => [r, "-p", p]],
      ["{bin} --prompt={prompt} {role}x", (p, r) => [`--prompt=${p}`, `${r}x`]],
    ];
    await fc.assert(
      fc.asyncProperty(text, text, fc.integer({ min: 0, max: templates.length - 1 }), async (p, r, k) => {
        const [command, expected] = templates[k]!;
        const out = await launch(command, { prompt: p, role: r });
        const bare = k === 2 ? p : k === 3 ? r : k === 4 ? r : null;
        if (bare !== null && bare.startsWith("-")) expect(out.refused).toBeDefined();
        else expect(out).toEqual({ argv: expected(p, r) });
      }),
      { numRuns: 25 },
    );
  }, 20_000);
});
