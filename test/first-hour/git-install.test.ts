// The README's other way in: `npm install --save-dev git+<URL>`. npm clones the repository, installs
// its development dependencies and runs its `prepare` (the build) in that clone, so this takes
// minutes: it runs when RYE_SLOW_TESTS=1 (before a release), and says so when it does not.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { REPO } from "./install.js";
import { step } from "./steps.js";
import { outsideOf } from "../helpers/outside.js";

const slow = process.env.RYE_SLOW_TESTS === "1";
const reason = "installing from a git URL builds the package in npm's own clone (minutes): set RYE_SLOW_TESTS=1 to run it";

test.skipIf(!slow)(`npm install from a git URL gives a working rye-build${slow ? "" : ` (skipped: ${reason})`}`, () => {
  const base = mkdtempSync(join(tmpdir(), "rye-git-install-"));
  const clone = join(base, "rye-build");
  // The committed tree, as a remote serves it.
  execFileSync("git", ["clone", "-q", "--depth", "1", `file://${REPO}`, clone]);
  const app = join(base, "app");
  const home = join(outsideOf(base), "home");
  mkdirSync(app);
  mkdirSync(home);
  const env = { ...process.env, HOME: home, USER_SPACE: home, npm_config_offline: "true", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };
  execFileSync("npm", ["init", "-y"], { cwd: app, env, stdio: "ignore" });
  const npm = spawnSync("npm", ["install", "--save-dev", `git+file://${clone}`], { cwd: app, env, encoding: "utf8", timeout: 900_000 });
  expect(npm.status, npm.stderr).toBe(0);
  expect(existsSync(join(app, "node_modules", "rye-build", "dist", "cli-bundle"))).toBe(true);
  expect(step("npx", ["--no-install", "rye-build", "init"], app, env).stdout).toContain("created  .ai/directives/hello/summarize.md");
  expect(step("npx", ["--no-install", "rye-build", "build"], app, env).stdout).toMatch(/Compiled 1 of 1 directives/);
}, 1_000_000);
