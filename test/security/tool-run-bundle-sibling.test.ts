// The attacker's F1 repro, through the CLI in dist/: a verified bundle run from a pull request's
// checkout, with argparse.py planted beside the hashed tool (Python imports the script's folder
// first), and `rye run tool` with a runtime that enables verify_deps. Each payload writes MARKER.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSigningKey, signingKeyDir } from "../../src/sign/keys.js";
import { formatTimestamp, signItem } from "../../src/sign/sign-item.js";
import { rye, tempDir } from "./helpers.js";

const PYTHON = spawnSync("sh", ["-c", "command -v python3"], { encoding: "utf8" }).stdout.trim();
const root = tempDir("rye-bundle-sibling-");
// Not beside the projects: without a repository, the folders above a project count as its checkout.
const home = tempDir("rye-bundle-sibling-home-");
const env = { PATH: process.env.PATH ?? "", HOME: home, USER_SPACE: home, PYTHONDONTWRITEBYTECODE: "1" };
const MARKER = join(root, "marker");
const hello = (project: string) => join(project, ".ai", "tools", "hello");
// Imports the real argparse afterwards, so the run would succeed if the file were loaded.
const ARGPARSE = `open(${JSON.stringify(MARKER)}, "w").write("pwned")
from importlib import import_module as _im
import sys as _s
del _s.modules["argparse"]; _s.path.pop(0)
_real = _im("argparse"); globals().update(_real.__dict__)
`;
const params = ["--params", '{"text": "a b c"}'];

function checkout(name: string): string {
  const pr = join(root, name);
  cpSync(join(root, "p2"), pr, { recursive: true });
  rmSync(join(pr, "out"), { recursive: true, force: true });
  return pr;
}

describe.skipIf(!PYTHON)("a bundle run imports nothing unvouched from beside the tool", () => {
  beforeAll(() => {
    mkdirSync(home, { recursive: true });
    expect(rye(root, env, "init", "p2").status).toBe(0);
    const built = rye(join(root, "p2"), env, "bundle");
    expect(built.status, built.stderr).toBe(0);
    mkdirSync(join(root, "ci"));
    for (const f of ["bundle.mjs", "bundle.mjs.sig"]) cpSync(join(root, "p2", "out", f), join(root, "ci", f));
  }, 120_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("refuses the run when argparse.py is planted beside the tool; the payload never runs", () => {
    const pr = checkout("pr");
    writeFileSync(join(hello(pr), "argparse.py"), ARGPARSE);
    const r = rye(pr, env, "run", "../ci/bundle.mjs", "tool", "hello/word_count", ...params, "--project", ".");
    expect(r.status, r.stdout + r.stderr).not.toBe(0);
    expect(r.stdout + r.stderr).toContain("argparse.py");
    expect(existsSync(MARKER)).toBe(false);
  }, 60_000);

  it("control: the same checkout without the planted file runs, and a helper signed by this machine's key passes", () => {
    const pr = checkout("pr-ok");
    const key = loadSigningKey(signingKeyDir(env));
    writeFileSync(join(hello(pr), "helper.py"), signItem("VALUE = 1\n", "tool", key, formatTimestamp(new Date()), "helper.py"));
    const r = rye(pr, env, "run", "../ci/bundle.mjs", "tool", "hello/word_count", ...params, "--project", ".");
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "success", data: { count: 3 } });
  }, 60_000);

  it("rye run tool: a runtime with verify_deps refuses an unsigned sibling, and runs once it is gone", () => {
    const pb = checkout("pb");
    const runtime = join(pb, ".ai", "tools", "rye", "core", "runtimes", "python", "script.yaml");
    writeFileSync(runtime, `${readFileSync(runtime, "utf8")}verify_deps:\n  enabled: true\n  scope: anchor\n  recursive: true\n  extensions: [".py", ".yaml", ".yml", ".json"]\n  exclude_dirs: ["__pycache__", ".venv", "node_modules", ".git", "config"]\n`);
    expect(rye(pb, env, "build").status).toBe(0);
    writeFileSync(join(hello(pb), "argparse.py"), ARGPARSE);
    const refused = rye(pb, env, "run", "tool", "hello/word_count", ...params);
    expect(refused.status, refused.stdout).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain("argparse.py");
    expect(existsSync(MARKER)).toBe(false);
    rmSync(join(hello(pb), "argparse.py"));
    const ok = rye(pb, env, "run", "tool", "hello/word_count", ...params);
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
  }, 60_000);
});
