// decisions.md #23: a verified bundle takes whatever selects code to run from the bundle or from
// outside the checkout. An enumerated matrix of hostile checkouts around a verified bundle — shims
// in .venv/bin and node_modules/.bin, .env lines, preloads, agents TOMLs, rye.config.json, a user
// space inside the checkout, npx-style PATH entries — each payload leaving a marker file. Every
// case runs through the CLI in dist/ twice: without the opt-in the marker must not exist and the
// run must either succeed with the outside choice or refuse naming --trust-checkout; with
// --trust-checkout the marker must exist, which proves each payload is live (not a broken path).
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBundleTool } from "../../src/bundle/run-bundle-tool.js";
import { REPO, rye, tempDir } from "./helpers.js";

const which = (name: string) => spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
const PYTHON = which("python3");
const GCC = which("gcc") || which("cc");
const NODE = process.execPath;

const root = tempDir("rye-bundle-run-");
const template = join(root, "template");
// The user space in a folder of its own: the folders above a project count as its checkout, .git or not.
const home = tempDir("rye-bundle-run-home-");
const key = join(home, ".ai", "config", "keys", "signing", "public_key.pem");
const baseEnv = () => ({ PATH: process.env.PATH ?? "", HOME: home, USER_SPACE: home, RYE_TRUSTED_KEYS: key });

const NODE_RUNTIME = `tool_type: runtime
executor_id: rye/core/primitives/subprocess
env_config:
  interpreter: {type: local_binary, binary: tsx, candidates: [node], search_paths: ["node_modules/.bin"], var: RYE_NODE, fallback: node}
anchor: {enabled: true, mode: always, root: project_path, env_paths: {PATH: {prepend: ["{anchor_path}/node_modules/.bin"]}, NODE_PATH: {prepend: ["{anchor_path}/node_modules"]}}}
config:
  command: "\${RYE_NODE}"
  args: ["-e", "process.stdout.write(JSON.stringify({success: true, probe: 'node'}))"]
`;
// The bundle itself names a preload in the checkout: an unhashed file, so refused without the opt-in.
const PRELOAD_RUNTIME = `tool_type: runtime
executor_id: rye/core/primitives/subprocess
env_config:
  env: {NODE_OPTIONS: "--require {project_path}/preload.cjs"}
config:
  command: node
  args: ["-e", "process.stdout.write(JSON.stringify({success: true, probe: 'preload'}))"]
`;
const BASH_RUNTIME = `tool_type: runtime
executor_id: rye/core/primitives/subprocess
config:
  command: bash
  args: ["-c", "echo '{\\"success\\": true, \\"probe\\": \\"bash\\"}'"]
`;
// Python's own search of the working directory: \`-c\` puts it first on sys.path, with no variable naming it.
const PY_C_RUNTIME = `tool_type: runtime
executor_id: rye/core/primitives/subprocess
config:
  command: python3
  args: ["-c", "import json; print(json.dumps({'success': True, 'probe': 'python -c'}))"]
`;
const probe = (runtime: string) => `__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "test/runtimes/${runtime}"\n`;

/** A checkout: a git working tree (`repo`) holding the project (`proj`) with its built, signed bundle. */
interface Ctx {
  repo: string;
  proj: string;
  marker: string;
  good: string;
  env: Record<string, string>;
}

/** A program that leaves `marker`, then runs the real one, so a run through it still succeeds. */
function shim(path: string, marker: string, real: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho ran >> '${marker}'\nexec '${real}' "$@"\n`);
  chmodSync(path, 0o755);
}

const touchJs = (marker: string) => `require("fs").appendFileSync(${JSON.stringify(marker)}, "ran\\n");\n`;
const agentsToml = (bin: string) => `[agents.coder]\nbin = ${JSON.stringify(bin)}\ncommand = "{bin} -p {prompt}"\n`;

type Mode = "untrusted" | "trusted";
interface Case {
  name: string;
  /** What runs: a bundled tool, or a directive handed to an agent. */
  run: { tool: string } | { agent: true };
  setup(c: Ctx): void;
  /** Extra arguments per mode (default none). */
  args?(c: Ctx, mode: Mode): string[];
  /** Without the opt-in: the outside choice runs (exit 0), or the run is refused naming the flag. */
  without: "outside" | "refused";
  /** Where the bundle lies: in the checkout's out/ (default), or in a folder outside it. */
  bundleOutside?: boolean;
  skip?: string;
}

const dotenv = (c: Ctx, text: string) => writeFileSync(join(c.proj, ".env"), text);

const CASES: Case[] = [
  { name: ".venv/bin/python shim", run: { tool: "examples/word_count" }, without: "outside", setup: (c) => shim(join(c.proj, ".venv/bin/python"), c.marker, PYTHON) },
  { name: ".venv/bin/python3 shim", run: { tool: "examples/word_count" }, without: "outside", setup: (c) => shim(join(c.proj, ".venv/bin/python3"), c.marker, PYTHON) },
  {
    name: ".venv/bin/python shim, bundle kept outside the checkout (CI running a trusted bundle on a pull request)",
    run: { tool: "examples/word_count" },
    without: "outside",
    bundleOutside: true,
    setup: (c) => shim(join(c.proj, ".venv/bin/python"), c.marker, PYTHON),
  },
  { name: "node_modules/.bin/tsx shim", run: { tool: "test/node_probe" }, without: "outside", setup: (c) => shim(join(c.proj, "node_modules/.bin/tsx"), c.marker, NODE) },
  { name: "node_modules/.bin/node shim (also first on the anchor's PATH)", run: { tool: "test/node_probe" }, without: "outside", setup: (c) => shim(join(c.proj, "node_modules/.bin/node"), c.marker, NODE) },
  {
    name: ".env PATH=./evil:… (relative)",
    run: { tool: "examples/word_count" },
    without: "outside",
    setup: (c) => {
      shim(join(c.proj, "evil/python3"), c.marker, PYTHON);
      dotenv(c, `PATH=./evil${delimiter}${process.env.PATH}\n`);
    },
  },
  {
    name: ".env PATH=<checkout>/evil:… (absolute)",
    run: { tool: "test/bash_probe" },
    without: "outside",
    setup: (c) => {
      shim(join(c.proj, "evil/bash"), c.marker, which("bash"));
      dotenv(c, `PATH=${join(c.proj, "evil")}${delimiter}${process.env.PATH}\n`);
    },
  },
  {
    name: ".env PYTHONPATH with a sitecustomize.py",
    run: { tool: "examples/word_count" },
    without: "outside",
    setup: (c) => {
      mkdirSync(join(c.proj, "evilpy"));
      writeFileSync(join(c.proj, "evilpy/sitecustomize.py"), `open(${JSON.stringify(c.marker)}, "a").write("ran\\n")\n`);
      dotenv(c, `PYTHONPATH=${join(c.proj, "evilpy")}\n`);
    },
  },
  {
    name: "json.py at the checkout's root, imported by `python3 -c` through the working directory on sys.path",
    run: { tool: "test/pyc_probe" },
    without: "outside",
    setup: (c) => writeFileSync(join(c.proj, "json.py"), `open(${JSON.stringify(c.marker)}, "a").write("ran\\n")\nimport sys\ndel sys.modules["json"]\nsys.path.remove("")\nimport importlib\nglobals().update(vars(importlib.import_module("json")))\n`),
  },
  {
    name: ".env NODE_OPTIONS=--require ./evil.cjs",
    run: { tool: "test/node_probe" },
    without: "outside",
    setup: (c) => {
      writeFileSync(join(c.proj, "evil.cjs"), touchJs(c.marker));
      dotenv(c, "NODE_OPTIONS=--require ./evil.cjs\n");
    },
  },
  {
    name: ".env LD_PRELOAD=<checkout>/evil.so",
    run: { tool: "examples/word_count" },
    without: "outside",
    skip: GCC ? undefined : "no C compiler to build the preload library",
    setup: (c) => {
      const src = join(c.proj, "evil.c");
      writeFileSync(src, `#include <stdio.h>\n__attribute__((constructor)) static void ran(void) { FILE *f = fopen(${JSON.stringify(c.marker)}, "a"); if (f) { fputs("ran\\n", f); fclose(f); } }\n`);
      const cc = spawnSync(GCC, ["-shared", "-fPIC", "-o", join(c.proj, "evil.so"), src], { encoding: "utf8" });
      expect(cc.status, cc.stderr).toBe(0);
      dotenv(c, `LD_PRELOAD=${join(c.proj, "evil.so")}\n`);
    },
  },
  {
    name: ".env BASH_ENV=<checkout>/evil.sh",
    run: { tool: "test/bash_probe" },
    without: "outside",
    setup: (c) => {
      writeFileSync(join(c.proj, "evil.sh"), `echo ran >> '${c.marker}'\n`);
      dotenv(c, `BASH_ENV=${join(c.proj, "evil.sh")}\n`);
    },
  },
  {
    // Named python3: a program rye judges by its grammar (an unknown name takes inert values only, so {params_json} would stop the run before it starts).
    name: ".env RYE_PYTHON=<checkout>/evil/python3",
    run: { tool: "examples/word_count" },
    without: "outside",
    setup: (c) => {
      shim(join(c.proj, "evil/python3"), c.marker, PYTHON);
      dotenv(c, `RYE_PYTHON=${join(c.proj, "evil/python3")}\n`);
    },
  },
  {
    name: "npx-style PATH: <checkout>/node_modules/.bin first in the caller's PATH",
    run: { tool: "examples/word_count" },
    without: "outside",
    setup: (c) => {
      shim(join(c.proj, "node_modules/.bin/python3"), c.marker, PYTHON);
      c.env.PATH = `${join(c.proj, "node_modules/.bin")}${delimiter}${c.env.PATH}`;
    },
  },
  {
    name: "a PATH entry elsewhere in the git working tree holding the project",
    run: { tool: "test/bash_probe" },
    without: "outside",
    setup: (c) => {
      shim(join(c.repo, "tools/bash"), c.marker, which("bash"));
      c.env.PATH = `${join(c.repo, "tools")}${delimiter}${c.env.PATH}`;
    },
  },
  {
    name: "the bundle's own env names a preload file in the checkout (NODE_OPTIONS --require)",
    run: { tool: "test/preload_probe" },
    without: "refused",
    setup: (c) => writeFileSync(join(c.proj, "preload.cjs"), touchJs(c.marker)),
  },
  {
    name: "--agents agents.toml in the checkout, bin = ./evil.sh",
    run: { agent: true },
    without: "refused",
    args: () => ["--agents", "agents.toml"],
    setup: (c) => {
      shim(join(c.proj, "evil.sh"), c.marker, "/bin/true");
      writeFileSync(join(c.proj, "agents.toml"), agentsToml("./evil.sh"));
    },
  },
  {
    name: "the project's .ai/config/agents.toml (default lookup) names an evil bin",
    run: { agent: true },
    without: "outside",
    setup: (c) => {
      shim(join(c.proj, "evil.sh"), c.marker, "/bin/true");
      mkdirSync(join(c.proj, ".ai/config"), { recursive: true });
      writeFileSync(join(c.proj, ".ai/config/agents.toml"), agentsToml(join(c.proj, "evil.sh")));
    },
  },
  {
    name: 'rye.config.json {"agents": …} names an evil agents TOML',
    run: { agent: true },
    without: "outside",
    setup: (c) => {
      shim(join(c.proj, "evil.sh"), c.marker, "/bin/true");
      writeFileSync(join(c.proj, "evil-agents.toml"), agentsToml(join(c.proj, "evil.sh")));
      writeFileSync(join(c.proj, "rye.config.json"), '{ "agents": "evil-agents.toml" }\n');
    },
  },
  {
    name: "a user space inside the checkout holding agents.toml",
    run: { agent: true },
    without: "refused",
    // With the opt-in the project's choice is used: name the user space's file to prove it is live.
    args: (c, mode) => (mode === "trusted" ? ["--agents", join(c.proj, "home/.ai/config/agents.toml")] : []),
    setup: (c) => {
      shim(join(c.proj, "evil.sh"), c.marker, "/bin/true");
      mkdirSync(join(c.proj, "home/.ai/config"), { recursive: true });
      writeFileSync(join(c.proj, "home/.ai/config/agents.toml"), agentsToml(join(c.proj, "evil.sh")));
      c.env.USER_SPACE = join(c.proj, "home");
      c.env.HOME = join(c.proj, "home");
    },
  },
  {
    name: "the user's own agents TOML names a relative bin (./evil.sh resolves in the checkout)",
    run: { agent: true },
    without: "refused",
    args: (c) => ["--agents", join(c.repo, "..", "outside-agents.toml")],
    setup: (c) => {
      shim(join(c.proj, "evil.sh"), c.marker, "/bin/true");
      writeFileSync(join(c.repo, "..", "outside-agents.toml"), agentsToml("./evil.sh"));
    },
  },
  {
    name: "the agent's bin name is found first in <checkout>/node_modules/.bin on the caller's PATH",
    run: { agent: true },
    without: "outside",
    args: () => ["--agents", join(home, ".ai/config/agents.toml")],
    setup: (c) => {
      shim(join(c.proj, "node_modules/.bin/coder-cli"), c.marker, "/bin/true");
      shim(join(home, "bin/coder-cli"), c.good, "/bin/true");
      writeFileSync(join(home, ".ai/config/agents.toml"), agentsToml("coder-cli"));
      c.env.PATH = [join(c.proj, "node_modules/.bin"), join(home, "bin"), c.env.PATH].join(delimiter);
    },
  },
];

let caseNo = 0;
function checkout(c: Case): Ctx {
  const dir = join(root, `case-${caseNo++}`);
  const repo = join(dir, "repo");
  const proj = join(repo, "proj");
  mkdirSync(join(repo, ".git"), { recursive: true });
  cpSync(template, proj, { recursive: true });
  const ctx: Ctx = { repo, proj, marker: join(dir, "marker"), good: join(dir, "good-agent-ran"), env: baseEnv() };
  // The user's own agent, outside every checkout: what an agent run falls back to.
  shim(join(home, "bin/good-agent"), ctx.good, "/bin/true");
  mkdirSync(join(home, ".ai/config"), { recursive: true });
  writeFileSync(join(home, ".ai/config/agents.toml"), agentsToml(join(home, "bin/good-agent")));
  c.setup(ctx);
  return ctx;
}

function runCase(c: Case, mode: Mode) {
  const ctx = checkout(c);
  let bundle = "out/bundle.mjs";
  if (c.bundleOutside) {
    const kept = join(dirname(ctx.repo), "trusted");
    mkdirSync(kept);
    for (const f of ["bundle.mjs", "bundle.mjs.sig"]) cpSync(join(ctx.proj, "out", f), join(kept, f));
    bundle = join(kept, "bundle.mjs");
  }
  const what = "tool" in c.run
    ? ["tool", c.run.tool, "--params", '{"text": "a b c"}']
    : ["directive", "examples/review_change", "--inputs", '{"diff": "d"}', "--agent", "coder"];
  const extra = [...(c.args?.(ctx, mode) ?? []), ...(mode === "trusted" ? ["--trust-checkout"] : [])];
  const r = rye(ctx.proj, ctx.env, "run", bundle, ...what, ...extra);
  return { ...r, ctx, ran: existsSync(ctx.marker), goodRan: existsSync(ctx.good) };
}

describe.skipIf(!PYTHON)(`a bundle run does not let the checkout choose code${PYTHON ? "" : " — skipped: python3 not on PATH"}`, () => {
  beforeAll(() => {
    cpSync(join(REPO, ".ai"), join(template, ".ai"), { recursive: true });
    mkdirSync(join(template, ".ai/tools/test/runtimes"), { recursive: true });
    writeFileSync(join(template, ".ai/tools/test/runtimes/node.yaml"), NODE_RUNTIME);
    writeFileSync(join(template, ".ai/tools/test/runtimes/preload.yaml"), PRELOAD_RUNTIME);
    writeFileSync(join(template, ".ai/tools/test/runtimes/bash.yaml"), BASH_RUNTIME);
    writeFileSync(join(template, ".ai/tools/test/runtimes/pyc.yaml"), PY_C_RUNTIME);
    writeFileSync(join(template, ".ai/tools/test/pyc_probe.py"), probe("pyc"));
    writeFileSync(join(template, ".ai/tools/test/node_probe.py"), probe("node"));
    writeFileSync(join(template, ".ai/tools/test/preload_probe.py"), probe("preload"));
    writeFileSync(join(template, ".ai/tools/test/bash_probe.py"), probe("bash"));
    writeFileSync(join(template, "package.json"), '{ "type": "module", "private": true }\n');
    const built = rye(template, baseEnv(), "bundle");
    expect(built.status, built.stderr + built.stdout).toBe(0);
    expect(existsSync(key)).toBe(true);
  }, 120_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }), 60_000);

  it("the API: runBundleTool takes the same rule, and trustCheckout is its opt-in", async () => {
    const c = CASES[0]!;
    for (const trustCheckout of [false, true]) {
      const ctx = checkout(c);
      const r = await runBundleTool("out/bundle.mjs", "examples/word_count", { text: "a b c" }, { cwd: ctx.proj, env: ctx.env, project: ctx.proj, trustCheckout });
      expect(r, JSON.stringify(r)).toMatchObject({ status: "success", data: { count: 3 } });
      expect(existsSync(ctx.marker)).toBe(trustCheckout);
    }
  }, 60_000);

  for (const c of CASES) {
    it.skipIf(c.skip !== undefined)(`${c.name}${c.skip ? ` — skipped: ${c.skip}` : ""}`, () => {
      const without = runCase(c, "untrusted");
      const said = without.stdout + without.stderr;
      expect(without.ran, `the checkout's payload ran without --trust-checkout:\n${said}`).toBe(false);
      if (c.without === "refused") {
        expect(without.status, said).not.toBe(0);
        expect(said).toContain("--trust-checkout");
      } else {
        expect(without.status, said).toBe(0);
        if ("tool" in c.run) expect(JSON.parse(without.stdout)).toMatchObject({ status: "success" });
        else expect(without.goodRan, "the agent outside the checkout ran").toBe(true);
      }
      const withFlag = runCase(c, "trusted");
      expect(withFlag.ran, `with --trust-checkout the checkout's choice is used:\n${withFlag.stdout}${withFlag.stderr}`).toBe(true);
      expect(readFileSync(withFlag.ctx.marker, "utf8")).toContain("ran");
    }, 60_000);
  }
});
