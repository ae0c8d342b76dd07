import { chmodSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { outsideOf } from "../helpers/outside.js";

const repoAi = fileURLToPath(new URL("../../.ai", import.meta.url));

function capture() {
  let text = "";
  return { stream: { write: (s: string) => ((text += s), true) } as unknown as Io["stdout"], text: () => text };
}

test("rye run <bundle> directive: render, validate, thread and an agent launched without a shell", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rye-run-"));
  cpSync(repoAi, join(dir, ".ai"), { recursive: true });
  // The user space lies inside the project, so its key does not vouch for the project's bundle: pin it.
  const env = { USER_SPACE: join(outsideOf(dir), "nouser"), PATH: process.env.PATH, RYE_TRUSTED_KEYS: join(outsideOf(dir), "nouser", ".ai", "config", "keys", "signing", "public_key.pem") };
  const quiet = capture();
  expect(await main(["bundle"], { stdout: quiet.stream, stderr: quiet.stream, cwd: dir, env })).toBe(0);
  process.env.RYE_TRUSTED_KEYS = join(outsideOf(dir), "nouser", ".ai", "config", "keys", "signing", "public_key.pem");
  const rye = async (...args: string[]) => {
    const out = capture();
    const err = capture();
    const code = await main(["run", "out/bundle.mjs", ...args], { stdout: out.stream, stderr: err.stream, cwd: dir, env });
    return { code, out: out.text(), err: err.text() };
  };
  const ok = await rye("directive", "examples/greet", "--inputs", '{"name": "Ada"}');
  expect(ok.code).toBe(0);
  expect(JSON.parse(ok.out).data.body).toContain("Hello  Ada!");
  const bad = await rye("directive", "examples/greet", "--inputs", '{"nmae": "Ada"}');
  expect(bad.code).toBe(1);
  expect(JSON.parse(bad.out)).toMatchObject({ status: "error", error: "Unknown parameters: nmae. Valid inputs: name, title, greeting, punctuation" });
  expect((await rye("tool")).code).toBe(2);
  const missingTool = await rye("tool", "x");
  expect(missingTool.code).toBe(1);
  expect(JSON.parse(missingTool.out)).toEqual({ status: "error", error: "Tool not found: x", item_id: "x" });
  // A bundled tool: its plan travels in the bundle, its script comes from the project and is re-hashed first.
  const counted = await rye("tool", "examples/word_count", "--params", '{"text": "one two three"}');
  expect(counted.code).toBe(0);
  expect(JSON.parse(counted.out)).toMatchObject({ status: "success", type: "tool", item_id: "examples/word_count", data: { success: true, count: 3 } });
  const dry = await rye("tool", "examples/word_count", "--params", '{"text": "x"}', "--dry-run");
  expect(JSON.parse(dry.out)).toMatchObject({ status: "validation_passed" });
  const script = join(dir, ".ai", "tools", "examples", "word_count.py");
  writeFileSync(script, readFileSync(script, "utf8") + "\n# edited after the bundle was built\n");
  const edited = await rye("tool", "examples/word_count", "--params", '{"text": "x"}');
  expect(edited.code).toBe(1);
  expect(JSON.parse(edited.out).error).toMatch(/word_count\.py/);

  // A stub agent records its argv; the prompt holds shell syntax that must arrive verbatim.
  const stub = join(dir, "stub-agent");
  const record = join(dir, "argv.json");
  writeFileSync(stub, `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\n`);
  chmodSync(stub, 0o755);
  writeFileSync(join(dir, ".ai", "agents.toml"), `[agents.stub]\nbin = ${JSON.stringify(stub)}\ncommand = "{bin} --model {model} --system '{role}' -- {prompt}"\ndefault_model = "fast"\n\n[agents.stub.models]\nfast = "model-fast-1"\n`);
  const diff = "'; rm -rf /; ' $(echo INJECTED) `id`";
  const launched = await rye("directive", "examples/review_change", "--inputs", JSON.stringify({ diff }), "--agent", "stub", "--agents", ".ai/agents.toml", "--model", "fast", "--trust-checkout");
  expect(launched.err).toBe("");
  expect(launched.code).toBe(0);
  const argv = JSON.parse(readFileSync(record, "utf8")) as string[];
  expect(argv).toHaveLength(6);
  expect(argv.slice(0, 2)).toEqual(["--model", "model-fast-1"]);
  expect(argv[2]).toBe("--system");
  expect(argv[3]).toContain("# Review Style Guide");
  expect(argv[4]).toBe("--");
  expect(argv[5]).toContain(diff);

  // Without --agents, the file the project's config names is used (relative to the project), when the checkout is trusted.
  writeFileSync(join(dir, "rye.config.json"), `{ "agents": ".ai/agents.toml" }\n`);
  writeFileSync(record, "[]");
  const configured = await rye("directive", "examples/review_change", "--inputs", JSON.stringify({ diff }), "--agent", "stub", "--trust-checkout");
  expect(configured.err).toBe("");
  expect(configured.code).toBe(0);
  expect(JSON.parse(readFileSync(record, "utf8"))).toHaveLength(6);
}, 60_000);
