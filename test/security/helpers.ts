// Real projects, real processes: the victim's machine, an attacker's key, payloads that leave a marker.
import { spawnSync } from "node:child_process";
import { sign } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatTrustedKeyToml, generateKeyPair, signingKeyFrom, type SigningKey } from "../../src/sign/index.js";
import { sha256Hex } from "../../src/sign/hash-region.js";
import { manifestFiles, shardPath, type Manifest, type Shard } from "../../src/sign/sign-manifest.js";
import { signModule } from "../../src/sign/sign-module.js";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const BIN = join(REPO, "bin", "rye.js");
const REPO_AI = join(REPO, ".ai");

export function tempDir(prefix = "rye-sec-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** An environment with nothing of the test runner's own: no RYE_* variables. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...extra };
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function node(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): Ran {
  const r = spawnSync(process.execPath, args, { cwd, env, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function rye(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): Ran {
  return node(cwd, env, BIN, ...args);
}

/** A project at `root` (created) with the repository's example items, and `rye-build` resolvable from it as an installed package. */
export function makeProject(root: string): string {
  mkdirSync(root, { recursive: true });
  cpSync(REPO_AI, join(root, ".ai"), { recursive: true });
  mkdirSync(join(root, "node_modules"), { recursive: true });
  symlinkSync(REPO, join(root, "node_modules", "rye-build"), "dir");
  writeFileSync(join(root, "package.json"), '{ "type": "module", "private": true }\n');
  return root;
}

/** A project at `root` (created) holding only the example greet directive, with `rye-build` resolvable from it. */
export function makeGreetProject(root: string): string {
  const rel = join(".ai", "directives", "examples", "greet.md");
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  cpSync(join(REPO, rel), join(root, rel));
  mkdirSync(join(root, "node_modules"), { recursive: true });
  symlinkSync(REPO, join(root, "node_modules", "rye-build"), "dir");
  writeFileSync(join(root, "package.json"), '{ "type": "module", "private": true }\n');
  return root;
}

/** JavaScript that, when evaluated, writes `marker`: the proof that a payload ran. */
export function payload(marker: string): string {
  return `import * as __ryeFs from "node:fs";\n__ryeFs.writeFileSync(${JSON.stringify(marker)}, "payload ran");\n`;
}

/** Inserts the payload after line 1 (the signature line), so it runs at the file's top level. */
export function inject(file: string, marker: string): void {
  const text = readFileSync(file, "utf8");
  const nl = text.indexOf("\n") + 1;
  writeFileSync(file, text.slice(0, nl) + payload(marker) + text.slice(nl));
}

export function markerRan(marker: string): boolean {
  return existsSync(marker);
}

/** A fresh key pair an attacker controls. */
export function attackerKey(): { key: SigningKey; publicPem: string } {
  const pair = generateKeyPair();
  return { key: signingKeyFrom(pair.privatePem), publicPem: pair.publicPem };
}

/** Plants a trusted-key TOML for `publicPem` under `<root>/.ai/config/keys/trusted/` and `.ai/trusted_keys/`. */
export function plantTrustedKey(root: string, publicPem: string): void {
  for (const dir of [join(root, ".ai", "config", "keys", "trusted"), join(root, ".ai", "trusted_keys")]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "attacker.toml"), formatTrustedKeyToml(publicPem, { owner: "attacker" }));
  }
}

function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) => {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    return e.isDirectory() ? filesUnder(dir, rel) : [rel];
  });
}

/**
 * What an attacker with their own key produces: every code file of `outDir` re-signed with `key`
 * and a manifest, signed with it, listing every file now in the folder (a planted key included).
 */
export function resignOutput(outDir: string, key: SigningKey): void {
  const old = JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8")) as Manifest;
  // The items the old shards named, so the forged manifest binds the same items to the same modules.
  const items = new Map<string, { itemId: string; sourceSha256: string }>();
  for (const folder of Object.keys(old.shards)) {
    const shard = JSON.parse(readFileSync(join(outDir, shardPath(folder)), "utf8")) as Shard;
    for (const [name, [itemId, sourceSha256]] of Object.entries(shard.items)) items.set(`${folder}/${name}`, { itemId, sourceSha256 });
  }
  const files: [string, string][] = [];
  for (const rel of filesUnder(outDir).filter((f) => !["manifest.json", "bundle.mjs", "bundle.mjs.sig"].includes(f) && !f.startsWith(".rye/") && !f.startsWith("manifest/"))) {
    let text = readFileSync(join(outDir, rel), "utf8");
    if (/\.(?:js|ts|mjs)$/.test(rel)) writeFileSync(join(outDir, rel), (text = signModule(text, key, old.generated_at)));
    files.push([rel, sha256Hex(text)]);
  }
  // The signed source list (freshness metadata) is kept as the build wrote it, bound by the new root too.
  const sourceList = readFileSync(join(outDir, "manifest", "sources.txt"), "utf8");
  rmSync(join(outDir, "manifest"), { recursive: true, force: true });
  for (const [rel, text] of manifestFiles(files, (p) => items.get(p), { ...old, sourceList }, key)) {
    mkdirSync(dirname(join(outDir, rel)), { recursive: true });
    writeFileSync(join(outDir, rel), text);
  }
}

/** Re-signs a bundle with `key`, inline and detached. */
export function resignBundle(bundle: string, key: SigningKey): void {
  const text = signModule(readFileSync(bundle, "utf8"), key, "2026-01-01T00:00:00Z");
  writeFileSync(bundle, text);
  writeFileSync(`${bundle}.sig`, sign(null, Buffer.from(text, "utf8"), key.privateKey));
}

/** The consumer app: renders one directive from `out/index.js` and prints it. */
export function writeApp(project: string, name = "app.mjs"): string {
  const path = join(project, name);
  writeFileSync(path, `import { directives } from "./out/index.js";\nconsole.log(JSON.stringify(directives["examples/greet"].render({ name: "Ada" })));\n`);
  return path;
}


export { dirname };

/** Replaces the file `at` by a symbolic link to `target`; returns the undo, which puts the bytes back. */
export function replaceFileWithLink(at: string, target: string): () => void {
  const saved = readFileSync(at);
  rmSync(at);
  symlinkSync(target, at);
  return () => {
    rmSync(at);
    writeFileSync(at, saved);
  };
}

/** Replaces the folder `at` by a symbolic link to `target`; returns the undo. */
export function replaceFolderWithLink(at: string, target: string): () => void {
  renameSync(at, `${at}.saved`);
  symlinkSync(target, at, "dir");
  return () => {
    rmSync(at);
    renameSync(`${at}.saved`, at);
  };
}
