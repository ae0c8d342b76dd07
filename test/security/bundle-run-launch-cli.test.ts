// The launcher rule of a bundle run end to end, through the CLI in dist/: a verified bundle whose
// runtimes reach checkout code only through what the child really gets — `env BASH_ENV=… bash`,
// a chain env `HOME: {project_path}` for zsh, `timeout 5 {project_path}/ci/run.sh`, and HOME
// itself inside the checkout for python3 (the user site's .pth). Without the opt-in each run is
// refused naming the element and --trust-checkout, and its marker does not exist; with
// --trust-checkout the marker exists (the payload is live).
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rye, tempDir } from "./helpers.js";

const which = (name: string) => spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
const PYTHON = spawnSync("python3", ["-c", "import sys; print(sys.executable, '%d.%d' % sys.version_info[:2])"], { encoding: "utf8" }).stdout.trim().split(" ");

const root = tempDir("rye-launch-cli-");
const home = tempDir("rye-launch-cli-home-");
const clean = join(root, "clean");
const markers = join(root, "markers");
const key = join(home, ".ai", "config", "keys", "signing", "public_key.pem");
const env = () => ({ PATH: process.env.PATH ?? "", HOME: home, USER_SPACE: home, RYE_TRUSTED_KEYS: key });

const RUNTIMES: Record<string, string> = {
  envbash: `config:\n  command: env\n  args: ["BASH_ENV={project_path}/.ci/bashenv", "bash", "-c", "echo '{}'"]\n`,
  zshhome: `env_config:\n  env:\n    HOME: "{project_path}"\nconfig:\n  command: zsh\n  args: ["-c", "print -r -- '{}'"]\n`,
  timeout: `config:\n  command: timeout\n  args: ["5", "{project_path}/ci/run.sh"]\n`,
  python: `config:\n  command: "${PYTHON[0] ?? "python3"}"\n  args: ["-c", "print('{}')"]\n`,
};

interface Case {
  tool: string;
  marker: string;
  /** What the refusal names. */
  names: string;
  /** The caller's HOME, when it is the checkout (a container whose checkout root is HOME). */
  homeIsCheckout?: boolean;
  needs?: string;
}

const CASES: Case[] = [
  { tool: "envbash", marker: "bashenv", names: "BASH_ENV=" },
  { tool: "zshhome", marker: "zshenv", names: "HOME=", needs: "zsh" },
  { tool: "timeout", marker: "run-sh", names: "ci/run.sh" },
  { tool: "python", marker: "user-site", names: "HOME=", homeIsCheckout: true, needs: "python3" },
];

/** The checkout a pull request brings: the project's chain files plus its payloads. */
function checkout(name: string): string {
  const c = join(root, name);
  cpSync(join(clean, ".ai"), join(c, ".ai"), { recursive: true });
  mkdirSync(join(c, ".git"));
  mkdirSync(join(c, ".ci"));
  mkdirSync(join(c, "ci"));
  writeFileSync(join(c, ".ci/bashenv"), `touch ${join(markers, name, "bashenv")}\n`);
  writeFileSync(join(c, ".zshenv"), `touch ${join(markers, name, "zshenv")}\n`);
  writeFileSync(join(c, "ci/run.sh"), `#!/bin/sh\ntouch ${join(markers, name, "run-sh")}\n`);
  chmodSync(join(c, "ci/run.sh"), 0o755);
  const site = join(c, `.local/lib/python${PYTHON[1]}/site-packages`);
  mkdirSync(site, { recursive: true });
  writeFileSync(join(site, "evil.pth"), `import os; open(${JSON.stringify(join(markers, name, "user-site"))}, "w")\n`);
  mkdirSync(join(markers, name), { recursive: true });
  return c;
}

describe("a verified bundle's launchers, through the CLI", () => {
  beforeAll(() => {
    mkdirSync(join(clean, ".ai/tools/rt"), { recursive: true });
    mkdirSync(join(clean, ".ai/tools/demo"), { recursive: true });
    mkdirSync(join(clean, ".ai/tools/rye/core/primitives"), { recursive: true });
    writeFileSync(join(clean, ".ai/tools/rye/core/primitives/execute.yaml"), "tool_type: primitive\nexecutor_id: null\n");
    for (const [name, body] of Object.entries(RUNTIMES)) {
      writeFileSync(join(clean, `.ai/tools/rt/${name}.yaml`), `tool_type: runtime\nexecutor_id: rye/core/primitives/execute\n${body}`);
      writeFileSync(join(clean, `.ai/tools/demo/${name}.py`), `__version__ = "1.0.0"\n__tool_type__ = "python"\n__executor_id__ = "rt/${name}"\n`);
    }
    const built = rye(clean, env(), "bundle");
    expect(built.status, built.stderr + built.stdout).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }), 60_000);

  for (const c of CASES) {
    const missing = c.needs && !which(c.needs) ? `${c.needs} is not installed` : "";
    it.skipIf(missing !== "")(`demo/${c.tool}${missing ? ` — skipped: ${missing}` : ""}`, () => {
      for (const trusted of [false, true]) {
        const name = `${c.tool}-${trusted ? "trusted" : "untrusted"}`;
        const dir = checkout(name);
        const runEnv = c.homeIsCheckout ? { ...env(), HOME: dir } : env();
        const r = rye(dir, runEnv, "run", join(clean, "out", "bundle.mjs"), "tool", `demo/${c.tool}`, "--params", "{}", ...(trusted ? ["--trust-checkout"] : []));
        const said = r.stdout + r.stderr;
        const ran = existsSync(join(markers, name, c.marker));
        if (trusted) {
          expect(ran, `with --trust-checkout the payload runs:\n${said}`).toBe(true);
          continue;
        }
        expect(ran, `the checkout's payload ran:\n${said}`).toBe(false);
        expect(JSON.parse(r.stdout)).toMatchObject({ status: "error" });
        expect(said).toContain(c.names);
        expect(said).toContain("--trust-checkout");
      }
    }, 60_000);
  }
});
