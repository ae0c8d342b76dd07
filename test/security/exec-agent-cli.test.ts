import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { outsideOf } from "../helpers/outside.js";

// Real processes: `node bin/rye.js run <bundle> directive … --agent stub` against a stub agent that
// records its argv and pid, then sleeps. Signals to rye must reach the agent, remove the role file
// and end rye with 128 + n; failures must be one line on stderr.

const BIN = fileURLToPath(new URL("../../bin/rye.js", import.meta.url));
const repoAi = fileURLToPath(new URL("../../.ai", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "rye-agent-cli-"));
const tmp = join(dir, "tmp");
const record = join(dir, "record.json");
const marker = join(dir, "marker");
const sink = { write: () => true } as unknown as Io["stdout"];
const env = { PATH: process.env.PATH ?? "", USER_SPACE: join(outsideOf(dir), "nouser"), TMPDIR: tmp, RYE_TRUSTED_KEYS: join(outsideOf(dir), "nouser", ".ai", "config", "keys", "signing", "public_key.pem") };
const started: number[] = [];

const stub = join(dir, "stub-agent");
const STUB = `#!/usr/bin/env node
require("fs").writeFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(2), pid: process.pid }));
setTimeout(() => {}, Number(process.env.STUB_SLEEP_MS || 0));
`;

function agents(command: string, extra = ""): string {
  const file = join(dir, "agents.toml");
  writeFileSync(file, `[agents.stub]\nbin = ${JSON.stringify(stub)}\ncommand = ${JSON.stringify(command)}\n${extra}`);
  return file;
}

function ryeArgs(agent: string, inputs: unknown = { diff: "d" }, directive = "examples/review_change"): string[] {
  return [BIN, "run", "out/bundle.mjs", "directive", directive, "--inputs", JSON.stringify(inputs), "--agent", agent, "--agents", "agents.toml", "--trust-checkout"];
}

function rye(agent: string, inputs?: unknown, directive?: string) {
  return spawnSync(process.execPath, ryeArgs(agent, inputs, directive), { cwd: dir, env, encoding: "utf8", timeout: 15_000 });
}

// Repeats its input 30 times: a prompt of megabytes from an --inputs argument rye itself can receive.
const BIG = `<!-- rye:unsigned -->
# Big prompt

\`\`\`xml
<directive name="big_prompt" version="1.0.0">
  <metadata>
    <description>Repeats its input.</description>
    <category>tests</category>
    <author>rye-build</author>
  </metadata>
  <inputs>
    <input name="text" type="string" required="true">Text to repeat</input>
  </inputs>
</directive>
\`\`\`

${"{input:text}".repeat(30)}
`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

const roleFiles = () => readdirSync(tmp).flatMap((d) => (d.startsWith("rye-roles-") ? readdirSync(join(tmp, d)).map((f) => join(tmp, d, f)) : []));

beforeAll(async () => {
  mkdirSync(tmp);
  cpSync(repoAi, join(dir, ".ai"), { recursive: true });
  mkdirSync(join(dir, ".ai", "directives", "tests"));
  writeFileSync(join(dir, ".ai", "directives", "tests", "big_prompt.md"), BIG);
  expect(await main(["bundle"], { stdout: sink, stderr: sink, cwd: dir, env: { USER_SPACE: env.USER_SPACE } })).toBe(0);
  writeFileSync(stub, STUB);
  chmodSync(stub, 0o755);
}, 60_000);

afterAll(() => {
  for (const pid of started) if (alive(pid)) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("signals to rye while an agent runs", () => {
  async function interrupted(signal: NodeJS.Signals) {
    rmSync(record, { force: true });
    agents("{bin} --role-file {role_file} -p {prompt}");
    const child: ChildProcess = spawn(process.execPath, ryeArgs("stub"), { cwd: dir, env: { ...env, STUB_SLEEP_MS: "30000" }, stdio: "ignore" });
    const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.on("exit", (code, sig) => r({ code, signal: sig })));
    expect(await until(() => existsSync(record), 10_000)).toBe(true);
    const { argv, pid } = JSON.parse(readFileSync(record, "utf8")) as { argv: string[]; pid: number };
    started.push(pid);
    const roleFile = argv[1]!;
    expect(existsSync(roleFile)).toBe(true);
    child.kill(signal);
    return { exit: await exited, pid, roleFile };
  }

  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]] as const) {
    it(`${signal}: forwarded to the agent, role file removed, rye exits ${code}`, async () => {
      const { exit, pid, roleFile } = await interrupted(signal);
      expect(exit.code).toBe(code);
      expect(existsSync(roleFile)).toBe(false);
      expect(await until(() => !alive(pid), 3000)).toBe(true);
    }, 20_000);
  }

  it("SIGKILL: the watchdog kills the agent and removes the role file; the next run sweeps what is left", async () => {
    const { exit, pid, roleFile } = await interrupted("SIGKILL");
    expect(exit.signal).toBe("SIGKILL");
    expect(await until(() => !alive(pid), 5000)).toBe(true);
    expect(await until(() => !existsSync(roleFile), 3000)).toBe(true);
    // A file left by a writer that no longer exists (as without the watchdog) goes at the next run.
    const folder = roleFiles()[0]?.replace(/\/[^/]+$/, "") ?? join(tmp, `rye-roles-${process.getuid?.() ?? 0}`);
    const orphan = join(folder, "role-999999999-deadbeef.md");
    writeFileSync(orphan, "left behind", { mode: 0o600 });
    const next = rye("stub");
    expect(next.status, next.stderr).toBe(0);
    expect(existsSync(orphan)).toBe(false);
    expect(roleFiles()).toEqual([]);
  }, 20_000);
});

describe("hostile agent configuration and values give one-line errors, and the agent never runs", () => {
  function refused(result: ReturnType<typeof rye>, pattern: RegExp, code = 1) {
    expect(result.status).toBe(code);
    expect(result.stderr).toMatch(pattern);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(existsSync(record)).toBe(false);
    expect(existsSync(marker)).toBe(false);
  }

  it("a model id that is an option: --dangerously-skip-permissions", () => {
    rmSync(record, { force: true });
    agents("{bin} -- {prompt}", `default_model = "--dangerously-skip-permissions"\n`);
    refused(rye("stub"), /^Agent 'stub': \{model\} "--dangerously-skip-permi…" starts with '-', so the agent would read it as an option; refused$/m);
    agents("{bin} {model} -- {prompt}", `default_model = "--dangerously-skip-permissions"\n`);
    refused(rye("stub"), /\{model\} .* starts with '-'/);
  });

  it("a NUL byte in the prompt", () => {
    rmSync(record, { force: true });
    agents("{bin} -p {prompt}");
    refused(rye("stub", { diff: "a\u0000b" }), /^Agent 'stub': argument 2 \(\{prompt\}\) holds a NUL byte/);
  });

  it("a prompt over the OS limit for one argument (E2BIG), with the limit and a hint", () => {
    rmSync(record, { force: true });
    agents("{bin} -p {prompt}");
    refused(rye("stub", { text: "x".repeat(100_000) }, "tests/big_prompt"), /argument 2 \(\{prompt\}\) is \d+ bytes, over the OS limit of 131072 bytes for one argument \(E2BIG\); pass the role through \{role_file\}/);
  });

  it("a missing agent binary", () => {
    rmSync(record, { force: true });
    writeFileSync(join(dir, "agents.toml"), `[agents.stub]\nbin = "rye-no-such-agent"\ncommand = "{bin} -p {prompt}"\n`);
    refused(rye("stub"), /^Agent 'stub': agent binary 'rye-no-such-agent' not found on PATH$/m);
  });

  it("prototype names: --agent constructor / __proto__ / toString, and a {constructor} placeholder", () => {
    rmSync(record, { force: true });
    agents("{bin} -p {prompt}");
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      refused(rye(name), new RegExp(`^Agent '${name}' is not in agents.toml; it has: stub\\.$`, "m"), 2);
    }
    // An entry named constructor works like any other, and {constructor} is text, not a lookup.
    writeFileSync(join(dir, "agents.toml"), `[agents.constructor]\nbin = ${JSON.stringify(stub)}\ncommand = "{bin} -p {constructor}{prompt}"\n\n[agents.__proto__]\nbin = 3\ncommand = "{bin}"\n`);
    const ok = rye("constructor");
    expect(ok.status, ok.stderr).toBe(0);
    expect((JSON.parse(readFileSync(record, "utf8")) as { argv: string[] }).argv[1]).toMatch(/^\{constructor\}/);
    rmSync(record, { force: true });
    // The broken __proto__ entry is a located error of its own and does not break the others.
    const broken = rye("__proto__");
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/agents\.toml:\d+:\d+ - error RYE7004: Invalid agent entry: agents\.__proto__\.bin must be a string/);
    expect(broken.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(record)).toBe(false);
  });
});
