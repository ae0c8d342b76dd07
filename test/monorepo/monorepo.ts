// A two-package npm workspace, each package holding its own `.ai/`, with rye-build, turbo and nx
// installed at the root as npm would hoist them, and the builder's environment of one CI runner.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { blocksOf } from "../docs/code-blocks.js";
import { outsideOf } from "../helpers/outside.js";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const PACKAGES = ["alpha", "beta"] as const;

/** The documented recipe of docs/caching.md marked ```json cache=<name>. */
export function recipe(name: string): string {
  const block = blocksOf(join(REPO, "docs", "caching.md"), "caching.md").find((b) => b.attrs.cache === name);
  if (!block) throw new Error(`docs/caching.md has no cache=${name} block`);
  return block.text;
}

export interface Monorepo {
  root: string;
  /** The builder's signing key folder, epoch and user space. */
  env: NodeJS.ProcessEnv;
  pinnedKey: string;
  /** Another machine: its own user space and key, nothing of the builder's. */
  elsewhere: NodeJS.ProcessEnv;
}

const quiet = { TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1", DO_NOT_TRACK: "1", NX_DAEMON: "false", NX_NO_CLOUD: "true", NX_TUI: "false", NO_COLOR: "1", FORCE_COLOR: "0" };

const DIRECTIVE = (pkg: string) => `# Hello from ${pkg}

\`\`\`xml
<directive name="hello" version="1.0.0">
  <metadata><description>Say hello from ${pkg}.</description></metadata>
  <inputs><input name="name" type="string" required="true">Who to greet</input></inputs>
</directive>
\`\`\`

Say hello to {input:name} from ${pkg}.
`;

/** The lock file npm writes for a workspace of `PACKAGES` and no other dependency. */
function lockFile(): string {
  const packages: Record<string, object> = { "": { name: "mono", workspaces: ["packages/*"] } };
  for (const p of PACKAGES) {
    packages[`packages/${p}`] = { name: p, version: "1.0.0" };
    packages[`node_modules/${p}`] = { resolved: `packages/${p}`, link: true };
  }
  return `${JSON.stringify({ name: "mono", lockfileVersion: 3, requires: true, packages }, null, 2)}\n`;
}

/** Writes the workspace; `files(pkg)` adds each package's own files (its package.json scripts, project.json). */
export function monorepo(name: string, rootFiles: Record<string, string>, files: (pkg: string) => Record<string, string>): Monorepo {
  const base = mkdtempSync(join(tmpdir(), `rye-monorepo-${name}-`));
  const root = join(base, "repo");
  const npm = execFileSync("npm", ["--version"], { encoding: "utf8" }).trim();
  mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
  writeFileSync(join(root, "package.json"), `${JSON.stringify({ name: "mono", private: true, packageManager: `npm@${npm}`, workspaces: ["packages/*"] }, null, 2)}\n`);
  writeFileSync(join(root, "package-lock.json"), lockFile());
  for (const [rel, text] of Object.entries(rootFiles)) writeFileSync(join(root, rel), text);
  // rye-build and the tools where npm puts them at the root of a workspace.
  symlinkSync(REPO, join(root, "node_modules", "rye-build"), "dir");
  for (const bin of ["rye", "rye-build"]) symlinkSync("../rye-build/bin/rye.js", join(root, "node_modules", ".bin", bin));
  for (const tool of ["turbo", "nx"]) symlinkSync(join(REPO, "node_modules", tool), join(root, "node_modules", tool), "dir");
  for (const pkg of PACKAGES) {
    const dir = join(root, "packages", pkg);
    mkdirSync(join(dir, ".ai", "directives", pkg), { recursive: true });
    writeFileSync(join(dir, ".ai", "directives", pkg, "hello.md"), DIRECTIVE(pkg));
    for (const [rel, text] of Object.entries({ "package.json": `${JSON.stringify({ name: pkg, version: "1.0.0", private: true }, null, 2)}\n`, ...files(pkg) })) writeFileSync(join(dir, rel), text);
    symlinkSync(`../packages/${pkg}`, join(root, "node_modules", pkg), "dir");
  }
  execFileSync("git", ["init", "-q", "."], { cwd: root });
  const env = { ...process.env, ...quiet, RYE_SIGNING_KEY_DIR: join(base, "builder-key"), SOURCE_DATE_EPOCH: "1767225600", USER_SPACE: join(outsideOf(base), "builder-user") };
  const elsewhere = { ...process.env, ...quiet, RYE_SIGNING_KEY_DIR: join(base, "other-key"), USER_SPACE: join(outsideOf(base), "other-user") };
  for (const dir of [env.USER_SPACE, elsewhere.USER_SPACE]) mkdirSync(dir, { recursive: true });
  return { root, env, elsewhere, pinnedKey: join(env.RYE_SIGNING_KEY_DIR, "public_key.pem") };
}

/** A command at `cwd`; its exit code and output together. */
export function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): { code: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout: 150_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** `rye verify out/` of one package with the builder's key pinned, on another machine. */
export const verifyPinned = (m: Monorepo, pkg: string, pin = true) =>
  run(process.execPath, [join(REPO, "bin", "rye.js"), "verify", "out/", ...(pin ? ["--trusted-key", m.pinnedKey] : [])], join(m.root, "packages", pkg), m.elsewhere);

export const bin = (name: string) => join(REPO, "node_modules", ".bin", name);
