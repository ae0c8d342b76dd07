// editors/nvim/*.lua start the project's own rye-build and nothing else. The 0.7–0.10 config is
// driven in a real headless Neovim (Debian bookworm ships 0.7.2): the client attaches and the
// directive's diagnostics arrive. The 0.11 config (vim.lsp.config/enable, newer than any Neovim a
// Debian package has) is loaded with those two functions stood in for, and the command it would
// start is started here and must answer `initialize`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { handshake } from "./lsp-handshake.js";
import { makeProject, REPO, serverEnv, type Project } from "./project.js";

const nvim = spawnSync("nvim", ["--version"], { encoding: "utf8" });
const version = nvim.status === 0 ? nvim.stdout.split("\n")[0] : null;
const SKIP = "nvim is not installed (Debian: apt-get install -y neovim): the Neovim configs are not run";
if (!version) console.warn(`[skip] ${SKIP}`);
if (!version) test.skip(`Neovim configs: ${SKIP}`, () => {});
const withNvim = version ? test : test.skip;

/** Opens the directive in headless Neovim with `-u <script>`; returns what the script wrote. */
function runNvim(script: string, config: string, p: Project, waitMs: number, file = p.directive): Record<string, unknown> {
  const state = mkdtempSync(join(tmpdir(), "rye-nvim-"));
  const out = join(state, "out.json");
  const env = {
    ...serverEnv(p.root),
    RYE_NVIM_CONFIG: join(REPO, "editors/nvim", config),
    RYE_NVIM_OUT: out,
    RYE_WAIT_MS: String(waitMs),
    // Neovim's own logs and state stay in the temporary folder.
    XDG_CACHE_HOME: state,
    XDG_STATE_HOME: state,
    XDG_DATA_HOME: state,
    XDG_CONFIG_HOME: state,
  };
  const run = spawnSync("nvim", ["--headless", "--noplugin", "-n", "-i", "NONE", "-u", join(REPO, "test/editors", script), file], {
    cwd: p.root,
    env,
    encoding: "utf8",
    timeout: waitMs + 20_000,
  });
  try {
    return JSON.parse(readFileSync(out, "utf8"));
  } catch {
    throw new Error(`nvim wrote nothing (status ${run.status}): ${run.stderr}${run.stdout}`);
  }
}

describe(`Neovim 0.7–0.10: editors/nvim/rye.lua (${version ?? "no nvim"})`, () => {
  withNvim.each([
    ["installed in the project", "here"],
    ["hoisted to the folder above (a workspace)", "parent"],
  ] as const)("%s: the client attaches and the directive's diagnostics arrive", (_, install) => {
    const p = makeProject(install);
    const seen = runNvim("nvim-driver.lua", "rye.lua", p, 20_000) as {
      status: string;
      diagnostics: { code: string; source: string }[];
      clients: { name: string; cmd: string[]; root: string; attached: boolean }[];
    };
    expect(seen.status).toBe("diagnostics");
    expect(seen.diagnostics.map((d) => d.code)).toContain("RYE2002");
    expect(seen.clients).toEqual([{ name: "rye", cmd: [p.bin, "lsp", "--stdio"], root: p.root, attached: true }]);
  }, 60_000);

  withNvim("without an install no client starts, and it says how to install", () => {
    const p = makeProject("none");
    const seen = runNvim("nvim-driver.lua", "rye.lua", p, 3_000) as { status: string; clients: unknown[]; notes: string[]; filetype: string };
    expect(seen.filetype).toBe("markdown"); // the config was asked, and declined
    expect(seen.clients).toEqual([]);
    expect(seen.notes.join("\n")).toContain("npm install --save-dev rye-build");
  }, 60_000);

  withNvim("markdown outside .ai/ starts no server", () => {
    const p = makeProject("here");
    const readme = join(p.root, "README.md");
    writeFileSync(readme, "# app\n");
    const seen = runNvim("nvim-driver.lua", "rye.lua", p, 3_000, readme) as { clients: unknown[]; filetype: string };
    expect(seen.filetype).toBe("markdown");
    expect(seen.clients).toEqual([]);
  }, 60_000);
});

describe("Neovim 0.11+: editors/nvim/rye-0.11.lua", () => {
  withNvim.each([
    ["installed in the project", "here"],
    ["hoisted to the folder above (a workspace)", "parent"],
  ] as const)("%s: the command it starts answers initialize", async (_, install) => {
    const p = makeProject(install);
    const seen = runNvim("nvim-stub-011.lua", "rye-0.11.lua", p, 0) as { name: string; enabled: string; root: string; cmd: string[]; cmd_with_config: string[]; cwd: string; filetypes: string[] };
    expect([seen.name, seen.enabled]).toEqual(["rye", "rye"]);
    expect(seen.filetypes).toEqual(["markdown", "yaml"]);
    expect(seen.root).toBe(p.root);
    expect(seen.cmd_with_config).toEqual([p.bin, "lsp", "--stdio"]);
    expect(seen.cmd).toEqual(seen.cmd_with_config);
    const [command, ...args] = seen.cmd;
    const answer = await handshake(command!, args, seen.cwd, seen.root, p.directive, serverEnv(p.root));
    expect(answer.serverName).toBe("rye");
    expect(answer.codes).toContain("RYE2002");
  }, 60_000);

  withNvim("without an install it does not start (no root), and says how to install", () => {
    const p = makeProject("none");
    const seen = runNvim("nvim-stub-011.lua", "rye-0.11.lua", p, 0) as { root?: string; cmd?: unknown; notes: string[] };
    expect(seen.root).toBeUndefined();
    expect(seen.cmd).toBeUndefined();
    expect(seen.notes.join("\n")).toContain("npm install --save-dev rye-build");
  }, 60_000);
});
