// A fresh `npm init -y` project with rye-build installed from the tarball `npm pack` makes of this
// checkout, offline. npm installs it from its cache when the cache holds every dependency; a clone
// whose cache does not (a fresh `npm ci` caches no registry metadata) gets the same tarball
// unpacked the way npm lays it out, its dependencies taken from this checkout's node_modules.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { outsideOf } from "../helpers/outside.js";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));

export interface Place {
  base: string;
  /** The project made by `npm init -y`. */
  app: string;
  /** HOME and USER_SPACE: where the signing key is made. */
  home: string;
  tarball: string;
  /** How rye-build got into the project, and why when not by `npm install`. */
  installedBy: string;
  env: NodeJS.ProcessEnv;
}

/** The environment of every command: a scratch home, npm and npx that never reach the network. */
function envFor(home: string): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _, VITEST: __, ...rest } = process.env;
  return { ...rest, HOME: home, USER_SPACE: home, npm_config_offline: "true", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false", NO_COLOR: "1" };
}

/** `npm pack` of this checkout into `dir` (its `prepare` build already ran: `npm test` builds first). */
export function pack(dir: string): string {
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", dir, "--json"], { cwd: REPO, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });
  return join(dir, (JSON.parse(out) as { filename: string }[])[0]!.filename);
}

/** Lays the tarball out as npm does (node_modules/rye-build and its two bin links), dependencies linked from this checkout. */
function unpack(app: string, tarball: string): void {
  const target = join(app, "node_modules", "rye-build");
  mkdirSync(target, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", target, "--strip-components=1"]);
  symlinkSync(join(REPO, "node_modules"), join(target, "node_modules"), "dir");
  mkdirSync(join(app, "node_modules", ".bin"), { recursive: true });
  for (const bin of ["rye", "rye-build"]) symlinkSync("../rye-build/bin/rye.js", join(app, "node_modules", ".bin", bin));
}

/** Makes the project and installs rye-build into it; esbuild, Vite and TypeScript are linked from this checkout. */
export function firstHourProject(): Place {
  const base = mkdtempSync(join(tmpdir(), "rye-first-hour-"));
  const app = join(base, "app");
  const home = join(outsideOf(base), "home");
  mkdirSync(app);
  mkdirSync(home);
  const env = envFor(home);
  const tarball = pack(base);
  execFileSync("npm", ["init", "-y"], { cwd: app, env, stdio: "ignore" });
  const npm = spawnSync("npm", ["install", "--offline", "--save-dev", tarball], { cwd: app, env, encoding: "utf8" });
  let installedBy = "npm install --offline";
  if (npm.status !== 0) {
    installedBy = `the tarball unpacked by hand: npm install --offline failed (${/npm error code (\S+)/.exec(npm.stderr)?.[1] ?? `exit ${npm.status}`}; the npm cache lacks a dependency)`;
    unpack(app, tarball);
  }
  // The bundlers and the compiler are the checkout's own: their registry metadata is rarely cached.
  for (const name of ["esbuild", "vite", "typescript"]) symlinkSync(join(REPO, "node_modules", name), join(app, "node_modules", name), "dir");
  return { base, app, home, tarball, installedBy, env };
}
