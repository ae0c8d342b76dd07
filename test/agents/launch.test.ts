import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { compileAgentConfig } from "../../src/agents/agent-config.js";
import { parseCommandTemplate } from "../../src/agents/command-template.js";
import { launchAgent } from "../../src/runtime/agents/launch-agent.js";
import { instructionsValue, isoDate, renderTemplate } from "../../src/runtime/agents/render-template.js";
import { SHARED_DIR, hasShared, sharedRows } from "../helpers/shared.js";

// A stub agent: prints its argv, the env entry it was given, and what it found at the role file.
const dir = mkdtempSync(join(tmpdir(), "rye-agent-"));
const stub = join(dir, "stub-agent");
writeFileSync(
  stub,
  `#!/usr/bin/env node
const fs = require("fs");
const rf = process.env.ROLE_FILE || process.argv.find((a) => a.startsWith(require("os").tmpdir()) && a.includes("rye-role-"));
const role = rf && fs.existsSync(rf) ? { path: rf, mode: (fs.statSync(rf).mode & 0o777).toString(8), text: fs.readFileSync(rf, "utf8") } : null;
console.log(JSON.stringify({ argv: process.argv.slice(2), env: process.env.AGENT_ENV ?? null, role }));
process.exit(process.env.FAIL ? 1 : 0);
`,
);
chmodSync(stub, 0o755);

async function run(command: string, values: { prompt?: string; role?: string; model?: string }, env: NodeJS.ProcessEnv = {}) {
  const { template, problems } = parseCommandTemplate(command);
  expect(problems.filter((p) => p.kind === "syntax")).toEqual([]);
  const r = await launchAgent(template!, { bin: stub, model: values.model ?? "m", prompt: values.prompt ?? "", role: values.role ?? "" }, { capture: true, env: { ...process.env, ...env } });
  return { exitCode: r.exitCode, out: JSON.parse(String(r.stdout)) as { argv: string[]; env: string | null; role: { path: string; mode: string; text: string } | null } };
}

const HOSTILE = ["it's", "'; rm -rf /; '", "$(echo INJECTED)", "`echo INJECTED`", "line1\nline2", 'back\\slash "dq"', "!bang $HOME ${HOME}", "", "explain {bin} and {model}", "use {date}"];
// Every string value of the DR-007 vectors is hostile input too: quotes, $(…), backticks, newlines, placeholders.
const vectorValues: string[] = hasShared
  ? (JSON.parse(readFileSync(join(SHARED_DIR, "vectors", "dr007-vectors.json"), "utf8")) as { values?: Record<string, unknown> }[])
      .flatMap((v) => Object.values(v.values ?? {}))
      .filter((x): x is string => typeof x === "string")
  : [];

describe("agent launch without a shell", () => {
  test.each([...new Set([...HOSTILE, ...sharedRows("DR-007 vector values as launch arguments", vectorValues)])].map((v) => [JSON.stringify(v).slice(0, 60), v] as const))("value %s is one literal argument", async (_n, value) => {
    // {model} names a model: control characters and a leading '-' are refused (tested below).
    const model = /[\u0000-\u001f\u007f]/.test(value) || value.startsWith("-") ? "m" : value;
    const { out } = await run(`{bin} --model {model} --system {role} -- '{prompt}' "You are: {role}"`, { prompt: value, role: value, model });
    expect(out.argv).toEqual(["--model", model, "--system", value, "--", value, `You are: ${value}`]);
  });

  test("VAR=value prefixes become environment entries", async () => {
    const { out } = await run(`AGENT_ENV='{prompt}' {bin} go`, { prompt: "$(id)" });
    expect(out.env).toBe("$(id)");
    expect(out.argv).toEqual(["go"]);
  });

  test("{role_file}: a private temp file, removed after success and after failure", async () => {
    const ok = await run(`ROLE_FILE={role_file} {bin} --role-file {role_file}`, { role: "You review code." });
    expect(ok.out.role).toMatchObject({ mode: "600", text: "You review code." });
    expect(ok.out.argv[1]).toBe(ok.out.role!.path);
    expect(existsSync(ok.out.role!.path)).toBe(false);
    const failed = await run(`ROLE_FILE={role_file} {bin}`, { role: "x" }, { FAIL: "1" });
    expect(failed.exitCode).toBe(1);
    expect(existsSync(failed.out.role!.path)).toBe(false);
  });
});

describe("DR-007 templates", () => {
  test("one pass: inserted values are never scanned again; unknown names stay", () => {
    expect(renderTemplate("{file_contents} {missing}", "role", { file_contents: "has {date} in it" })).toBe("has {date} in it {missing}");
    expect(renderTemplate("Help me with: {instructions}", "task", { instructions: instructionsValue([]) })).toBe("Help me with: None");
    expect(renderTemplate("{model}", "role", { model: "m" })).toBe("{model}");
    expect(isoDate(new Date())).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/);
  });

  test("scope, syntax and TOML problems are located diagnostics", () => {
    const toml = `[agents.claude]
bin = "claude"
command = "{bin} --model {model} '{prompt}' {file}"

[agents.broken]
bin = "x"
command = "{bin} '{prompt}"

[agents.nobin]
bin = "x"
command = "claude {prompt}"

[roles.reviewer]
prompt = "Review with {model} on {date}"
`;
    const { diagnostics } = compileAgentConfig(toml, "agents.toml");
    const at = (needle: string, from = 0) => {
      const i = toml.indexOf(needle, from);
      const line = toml.slice(0, i).split("\n").length;
      return { line, column: i - toml.lastIndexOf("\n", i - 1) };
    };
    expect(diagnostics.map((d) => ({ code: d.code, line: d.loc!.start.line, column: d.loc!.start.column }))).toEqual([
      { code: "RYE7001", ...at("{file}") },
      { code: "RYE7005", ...at("{prompt}' {file}") },
      { code: "RYE7002", ...at("'{prompt}\"") },
      { code: "RYE7005", ...at("{prompt}", toml.indexOf("claude {prompt}")) },
      { code: "RYE7003", ...at("claude {prompt}") },
      { code: "RYE7001", ...at("{model} on") },
    ]);
    expect(compileAgentConfig("[agents\nx = 1", "bad.toml").diagnostics[0]).toMatchObject({ code: "RYE7004", loc: { start: { line: 1 } } });
  });
});
