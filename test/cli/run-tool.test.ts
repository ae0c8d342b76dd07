import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPair, loadSigningKey, writeKeyPair } from "../../src/sign/keys.js";
import { signItem } from "../../src/sign/sign-item.js";

const hasPython = spawnSync("python3", ["--version"]).status === 0;
const repoAi = fileURLToPath(new URL("../../.ai", import.meta.url));
const BIN = fileURLToPath(new URL("../../bin/rye.js", import.meta.url));

// A tool that reports exactly what it received: its parameters (stdin is unused by this runtime) and argv.
const ECHO = `__version__ = "1.0.0"
__tool_type__ = "python"
__executor_id__ = "rye/core/runtimes/python/script"
CONFIG_SCHEMA = {"type": "object", "properties": {"value": {"type": "string"}}}

import json, sys

args = sys.argv[1:]
params = json.loads(args[args.index("--params") + 1])
print(json.dumps({"success": True, "value": params["value"], "argv_count": len(args)}))
`;

describe.skipIf(!hasPython)(`rye run tool${hasPython ? "" : " — skipped: python3 not on PATH"}`, () => {
  const dir = mkdtempSync(join(tmpdir(), "rye-run-tool-"));
  // Outside the project: a key file in the checkout is no anchor, pinned or not.
  const user = mkdtempSync(join(tmpdir(), "rye-run-tool-user-"));
  // Pinned as CI would pin it.
  const env = { USER_SPACE: user, PATH: process.env.PATH, RYE_TRUSTED_KEYS: join(user, ".ai/config/keys/signing/public_key.pem") };
  const saved = process.env.RYE_TRUSTED_KEYS;

  // A real process from dist/: `rye run tool` imports out/ through the verifying loader, which only a
  // Node process applies (inside vitest its module runner evaluates modules, and the loader refuses that).
  const rye = async (...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env: { ...env, NO_COLOR: "1" }, encoding: "utf8" });
    return { code: r.status, out: r.stdout, err: r.stderr, json: () => JSON.parse(r.stdout) };
  };

  beforeAll(async () => {
    cpSync(repoAi, join(dir, ".ai"), { recursive: true });
    mkdirSync(join(dir, ".ai/tools/test"), { recursive: true });
    writeFileSync(join(dir, ".ai/tools/test/echo.py"), ECHO);
    writeFileSync(join(dir, ".ai/tools/test/untouched.py"), ECHO);
    const built = await rye("build");
    expect(built.code, built.err).toBe(0);
    // Compiled modules verify themselves against this machine's key, as a user's shell would find it.
    process.env.RYE_TRUSTED_KEYS = join(user, ".ai/config/keys/signing/public_key.pem");
  }, 60_000);
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env.RYE_TRUSTED_KEYS;
    else process.env.RYE_TRUSTED_KEYS = saved;
  });

  it("runs the example tool through its compiled chain and prints the rye_execute success shape", async () => {
    const r = await rye("run", "tool", "examples/word_count", "--params", '{"text": "to be or not to be", "unique": true}');
    expect(r.code, r.err + r.out).toBe(0);
    const response = r.json();
    expect(Object.keys(response)).toEqual(["status", "type", "item_id", "data", "chain", "metadata"]);
    expect(response).toMatchObject({ status: "success", type: "tool", item_id: "examples/word_count", data: { success: true, count: 4 } });
    expect(response.chain.map((c: { item_id: string; space: string }) => [c.item_id, c.space])).toEqual([
      ["examples/word_count", "project"],
      ["rye/core/runtimes/python/script", "project"],
      ["rye/core/primitives/subprocess", "project"],
    ]);
    expect(response.chain[0]).toMatchObject({ tool_type: "python", executor_id: "rye/core/runtimes/python/script" });
    expect(response.chain.every((c: { integrity: string }) => /^[0-9a-f]{64}$/.test(c.integrity))).toBe(true);
    expect(typeof response.metadata.duration_ms).toBe("number");
  });

  it("--dry-run prints the validated chain without running anything", async () => {
    const r = await rye("run", "tool", "examples/word_count", "--dry-run");
    expect(r.code).toBe(0);
    const response = r.json();
    expect(response).toMatchObject({ status: "validation_passed", message: "Tool chain validation passed (dry run)", item_id: "examples/word_count", validated_pairs: 2 });
    expect(response.chain).toHaveLength(3);
  });

  it("hands a value full of shell syntax to the tool verbatim, as one argument", async () => {
    const hostile = `'; rm -rf /; ' $(touch ${dir}/pwned) \`touch ${dir}/pwned2\` "q" \\ end`;
    const r = await rye("run", "tool", "test/echo", "--params", JSON.stringify({ value: hostile }));
    expect(r.code, r.out).toBe(0);
    // argv: --params JSON --project-path DIR: four arguments whatever the value holds.
    expect(r.json().data).toEqual({ success: true, value: hostile, argv_count: 4 });
  });

  it("reports a tool's {success: false} payload as a failure (exit 1) with the data", async () => {
    const r = await rye("run", "tool", "rye/file-system/read", "--params", '{"path": "../outside.txt"}');
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({ status: "error", error: "path escapes the project", item_id: "rye/file-system/read", data: { success: false } });
  });

  it("refuses to run when a chain element changed since the build", async () => {
    const runtime = join(dir, ".ai/tools/rye/core/runtimes/python/script.yaml");
    const before = readFileSync(runtime, "utf8");
    appendFileSync(runtime, "# edited\n");
    try {
      const r = await rye("run", "tool", "examples/word_count", "--params", '{"text": "a"}');
      expect(r.code).toBe(1);
      expect(r.json()).toMatchObject({ status: "error", item_id: "examples/word_count" });
      expect(r.json().error).toMatch(/^Integrity check failed: rye\/core\/runtimes\/python\/script \(.*script\.yaml\) changed since it was compiled/);
    } finally {
      writeFileSync(runtime, before);
    }
  });

  it("exit codes: unknown tool 1, bad --params 2, missing id 2", async () => {
    const missing = await rye("run", "tool", "examples/nope");
    expect(missing.code).toBe(1);
    expect(missing.json()).toEqual({ status: "error", error: "Tool not found: examples/nope", item_id: "examples/nope" });
    expect((await rye("run", "tool", "examples/word_count", "--params", "{not json")).code).toBe(2);
    expect((await rye("run", "tool", "examples/word_count", "--params", "[1]")).code).toBe(2);
    expect((await rye("run", "tool")).code).toBe(2);
    expect((await rye("run", "tool", "../x")).code).toBe(2);
  });

  it("a compiled module edited after signing fails rye verify, naming the file", async () => {
    // Modules do not check themselves on import: trusted code verifies them before they run.
    const module = join(dir, "out/tools/test/untouched.js");
    const before = readFileSync(module, "utf8");
    appendFileSync(module, "\n// tampered\n");
    try {
      const r = await rye("verify", "out");
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/Differs from the manifest: tools\/test\/untouched\.js \(test\/untouched\)/);
    } finally {
      writeFileSync(module, before);
    }
  });

  it("follows a chain into a system space given to the build (--system)", async () => {
    const system = join(dir, "system-space");
    mkdirSync(join(system, ".ai/tools/rt"), { recursive: true });
    mkdirSync(join(system, ".ai/tools/rye/core/primitives"), { recursive: true });
    writeFileSync(join(system, ".ai/tools/rye/core/primitives/execute.yaml"), "tool_type: primitive\nexecutor_id: null\n");
    writeFileSync(
      join(system, ".ai/tools/rt/py.yaml"),
      'tool_type: runtime\nexecutor_id: rye/core/primitives/execute\nconfig:\n  command: python3\n  args: ["{tool_path}", "--params", "{params_json}", "--project-path", "{project_path}"]\n',
    );
    writeFileSync(join(dir, ".ai/tools/test/via_system.py"), ECHO.replace("rye/core/runtimes/python/script", "rt/py"));
    const built = await rye("build", "--system", system);
    expect(built.code, built.err).toBe(0);
    const r = await rye("run", "tool", "test/via_system", "--params", '{"value": "v"}');
    expect(r.code, r.out).toBe(0);
    expect(r.json().chain.map((c: { item_id: string; space: string }) => `${c.space}:${c.item_id}`)).toEqual([
      "project:test/via_system",
      "system:0:rt/py",
      "system:0:rye/core/primitives/execute",
    ]);
    expect(r.json().data).toEqual({ success: true, value: "v", argv_count: 4 });
    rmSync(join(dir, ".ai/tools/test/via_system.py"));
  });

  it("verifies a signed chain element against the trust store before running", async () => {
    // This machine's key is trusted; a stranger's key is not.
    const stranger = join(dir, "stranger-key");
    writeKeyPair(stranger, generateKeyPair());
    const sign = (name: string, keyDir: string) =>
      writeFileSync(join(dir, `.ai/tools/test/${name}.py`), signItem(ECHO, "tool", loadSigningKey(keyDir), "2026-01-01T00:00:00Z", `${name}.py`));
    sign("signed_ok", join(user, ".ai/config/keys/signing"));
    sign("signed_stranger", stranger);
    const built = await rye("build");
    expect(built.code, built.err.split("\n").filter((l) => / error /.test(l)).join("\n")).toBe(0);
    const ok = await rye("run", "tool", "test/signed_ok", "--params", '{"value": "v"}');
    expect(ok.code, ok.out).toBe(0);
    const refused = await rye("run", "tool", "test/signed_stranger", "--params", '{"value": "v"}');
    expect(refused.code).toBe(1);
    expect(refused.json()).toMatchObject({ status: "error", item_id: "test/signed_stranger" });
    expect(refused.json().error).toMatch(/^Untrusted key/);
  });
});
