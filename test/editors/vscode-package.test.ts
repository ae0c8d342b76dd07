// `npm run package` in editors/vscode (what `npm run package:vscode` runs after installing) builds a
// bundled .vsix without the network; its manifest names a publisher, licence, repository and icon,
// and it holds one bundled main file and no node_modules.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { REPO } from "./project.js";
import { readZip } from "./zip.js";

const EXT = join(REPO, "editors/vscode");
const VSIX = join(EXT, "dist/rye-directives.vsix");
const installed = existsSync(join(EXT, "node_modules/.bin/vsce")) && existsSync(join(EXT, "node_modules/.bin/esbuild"));
const SKIP = "editors/vscode has no node_modules (npm ci --prefix editors/vscode): the extension is not packaged";
if (!installed) console.warn(`[skip] ${SKIP}`);
// As root (CI and this machine) the packaging runs in a network namespace of its own, with no
// network at all: it proves vsce needs none.
const offline = spawnSync("unshare", ["-n", "true"]).status === 0;

let entries: Map<string, Buffer>;
let log = "";

beforeAll(() => {
  if (!installed) return;
  const npm = ["npm", "run", "package", "--silent"];
  const run = offline ? spawnSync("unshare", ["-n", "--", ...npm], { cwd: EXT, encoding: "utf8", timeout: 110_000 }) : spawnSync(npm[0]!, npm.slice(1), { cwd: EXT, encoding: "utf8", timeout: 110_000 });
  log = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`packaging failed (${run.status}):\n${log}`);
  entries = readZip(readFileSync(VSIX));
}, 120_000);

const manifest = () => JSON.parse(entries.get("extension/package.json")!.toString("utf8"));

describe.skipIf(!installed)(`VS Code extension package${offline ? " (built with no network)" : ""}`, () => {
  test("the manifest names a publisher, licence, repository and icon, as the package's XML does", () => {
    const m = manifest();
    expect(m.publisher).toBe("rye-build");
    expect(m.license).toBe("MIT");
    expect(m.repository.url).toMatch(/^https:\/\/.+\.git$/);
    expect(m.icon).toBe("icon.png");
    const xml = entries.get("extension.vsixmanifest")!.toString("utf8");
    expect(xml).toContain('Publisher="rye-build"');
    expect(xml).not.toContain("undefined");
    expect(xml).toContain('Path="extension/LICENSE.txt"');
  });

  test("the licence and a PNG icon are in the package", () => {
    expect(entries.get("extension/LICENSE.txt")!.toString("utf8")).toMatch(/^MIT License/);
    const icon = entries.get("extension/icon.png")!;
    expect(icon.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(icon.readUInt32BE(16)).toBeGreaterThanOrEqual(128); // width: the Marketplace wants 128 px or more
  });

  test("a few files: one bundled main file, no node_modules, no sources", () => {
    const names = [...entries.keys()];
    expect(names.filter((n) => n.includes("node_modules"))).toEqual([]);
    expect(names.filter((n) => n.startsWith("extension/src/"))).toEqual([]);
    expect(names.length).toBeLessThanOrEqual(10);
    expect(manifest().main).toBe("./dist/extension.js");
    expect(names.filter((n) => n.endsWith(".js"))).toEqual(["extension/dist/extension.js"]);
  });

  test("the main file needs nothing but vscode and Node's own modules", () => {
    const main = entries.get("extension/dist/extension.js")!.toString("utf8");
    const required = new Set([...main.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!));
    const builtins = new Set([...builtinModules, ...builtinModules.map((b) => `node:${b}`)]);
    expect([...required].filter((r) => r !== "vscode" && !builtins.has(r))).toEqual([]);
    expect(required).toContain("vscode");
  });

  test("the main file loads alone (no node_modules beside it) and exports activate and deactivate", () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-vsix-"));
    writeFileSync(join(dir, "extension.js"), entries.get("extension/dist/extension.js")!);
    // vscode itself is only there inside the editor: a stand-in answers every property.
    const probe = `
      const Module = require("node:module");
      const stub = new Proxy(function () {}, { get: (t, k) => (k === "__esModule" ? true : k === "then" ? undefined : stub), apply: () => stub, construct: () => stub });
      const load = Module._load;
      Module._load = function (request, ...rest) { return request === "vscode" ? stub : load.call(this, request, ...rest); };
      const ext = require(${JSON.stringify(join(dir, "extension.js"))});
      console.log(JSON.stringify({ activate: typeof ext.activate, deactivate: typeof ext.deactivate }));`;
    const run = spawnSync(process.execPath, ["-e", probe], { cwd: dir, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ activate: "function", deactivate: "function" });
  });

  test("the contributed rye.command defaults to none: the workspace's own install is found", () => {
    expect(manifest().contributes.configuration.properties["rye.command"].default).toEqual([]);
  });

  test("it does not start in an untrusted workspace, whose node_modules or settings would choose the command", () => {
    expect(manifest().capabilities).toMatchObject({ untrustedWorkspaces: { supported: false }, virtualWorkspaces: false });
  });
});

test.skipIf(installed)(`VS Code extension package: ${SKIP}`, () => {});
