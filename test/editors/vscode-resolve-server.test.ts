// The VS Code extension's choice of server command (editors/vscode/src/resolve-server.js): the
// rye.command setting, else the nearest node_modules install of rye-build at or above the workspace
// folder, else an error naming the install command. Never npx, never a bare `rye` from PATH.
import { createRequire } from "node:module";
import { posix } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { handshake } from "./lsp-handshake.js";
import { makeProject, serverEnv } from "./project.js";

const require = createRequire(import.meta.url);
const { resolveServer, INSTALL } = require("../../editors/vscode/src/resolve-server.js") as {
  resolveServer(folder: string | undefined, configured: unknown, env?: { platform?: string; exists?: (p: string) => boolean }): { command: string; args: string[]; shell: boolean; from: string } | { error: string; install: string };
  INSTALL: string;
};

type Install = "none" | "bin" | "script" | "both";
const setting = fc.oneof(
  fc.constant(undefined),
  fc.constant([]),
  fc.constant(null),
  fc.constant("npx rye lsp"), // a string, not a list: ignored
  fc.array(fc.constantFrom("", "x", 1 as unknown as string), { minLength: 1, maxLength: 3 }).filter((a) => a.some((x) => x === "" || typeof x !== "string")),
  fc.array(fc.constantFrom("/opt/rye-build", "lsp", "--stdio", "node", "x y"), { minLength: 1, maxLength: 4 }),
);

describe("resolveServer, over generated folder layouts and settings", () => {
  test("picks the setting, else the nearest install (bin link before script), else says how to install", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<Install>("none", "bin", "script", "both"), { minLength: 1, maxLength: 5 }), setting, fc.constantFrom("linux", "darwin", "win32"), (levels, configured, platform) => {
        // levels[0] is the workspace folder /w/1/2/…, each next one the folder above it.
        const folders = levels.map((_, i) => posix.join("/w", ...Array.from({ length: levels.length - 1 - i }, (_, j) => String(j + 1))));
        const files = new Set<string>();
        levels.forEach((install, i) => {
          const shim = platform === "win32" ? "rye-build.cmd" : "rye-build";
          if (install === "bin" || install === "both") files.add(posix.join(folders[i]!, "node_modules/.bin", shim));
          if (install === "script" || install === "both") files.add(posix.join(folders[i]!, "node_modules/rye-build/bin/rye.js"));
        });
        const got = resolveServer(folders[0], configured, { platform, exists: (p) => files.has(p) });
        const valid = Array.isArray(configured) && configured.length > 0 && configured.every((a) => typeof a === "string" && a !== "");
        if (valid) {
          expect(got).toEqual({ command: configured[0], args: configured.slice(1), shell: platform === "win32", from: "setting" });
          return;
        }
        const nearest = levels.findIndex((l) => l !== "none");
        if (nearest < 0) {
          expect(got).toMatchObject({ install: INSTALL });
          expect((got as { error: string }).error).toContain(INSTALL);
          return;
        }
        const dir = folders[nearest]!;
        const level = levels[nearest]!;
        if (level === "bin" || level === "both") expect(got).toEqual({ command: posix.join(dir, "node_modules/.bin", platform === "win32" ? "rye-build.cmd" : "rye-build"), args: ["lsp", "--stdio"], shell: platform === "win32", from: "bin" });
        else expect(got).toEqual({ command: "node", args: [posix.join(dir, "node_modules/rye-build/bin/rye.js"), "lsp", "--stdio"], shell: false, from: "script" });
      }),
      { numRuns: 500 },
    );
  });

  test("with no folder open it starts nothing and says so", () => {
    expect(resolveServer(undefined, undefined)).toMatchObject({ install: INSTALL });
  });
});

describe("resolveServer in a real project", () => {
  test("the command it picks is the project's rye-build, and it answers initialize", async () => {
    const p = makeProject("here");
    const got = resolveServer(p.root, []);
    expect(got).toEqual({ command: p.bin, args: ["lsp", "--stdio"], shell: false, from: "bin" });
    if (!("command" in got)) return;
    const answer = await handshake(got.command, got.args, p.root, p.root, p.directive, serverEnv(p.root));
    expect(answer.serverName).toBe("rye");
    expect(answer.codes).toContain("RYE2002");
  }, 60_000);

  test("without an install: the error names the install command", () => {
    const p = makeProject("none");
    expect(resolveServer(p.root, undefined)).toEqual({ error: expect.stringContaining("npm install --save-dev rye-build"), install: "npm install --save-dev rye-build" });
  });
});
