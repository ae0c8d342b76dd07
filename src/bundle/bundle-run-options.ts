/**
 * How a verified bundle's tool runs (decisions.md #23): the bundle chooses the code, not the
 * checkout around it. Unless the caller trusts the checkout (`--trust-checkout`, `trustCheckout`):
 *   - the project's `.env` is not read;
 *   - interpreter resolution passes over every file of the checkout (`.venv/bin/python`,
 *     `node_modules/.bin/tsx`, a `command` that prints a checkout path) and takes the fallback;
 *   - search lists of the environment (PATH, PYTHONPATH, NODE_PATH, …) lose their checkout entries,
 *     preloads into the checkout (LD_PRELOAD, BASH_ENV, NODE_OPTIONS --require …) are refused;
 *   - inherited variables naming a checkout path are dropped (HOME in the checkout is refused);
 *   - the process started, after the launcher walk (`env NAME=…`, `timeout`, a shell's script,
 *     an interpreter's script), must not run a checkout file other than one the plan hashed, and
 *     no value of its environment may name one (launch-guard.ts);
 *   - every file an interpreter could import from the tool's folder must be signed by a key trusted
 *     from outside the checkout (the runtime's `verify_deps` scope, or `BUNDLE_DEPS_SCOPE` when it
 *     enables none), and Python reads no bytecode cache from the checkout.
 */
import { mkdtempSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import type { Execa } from "../runtime/exec/run-process.js";
import type { RunToolOptions } from "../runtime/exec/run-tool.js";
import { join, resolve } from "node:path";
import { BUNDLE_DEPS_SCOPE, dependencyVerifier } from "./dependency-verifier.js";
import { checkoutOf, type Checkout } from "./checkout.js";
import { checkoutEnv, dropCheckoutValues } from "./checkout-env.js";
import { guardedExeca } from "./guard-spawn.js";

/** The CLI's flag, named in every refusal so the way out is one copy away. */
export const TRUST_CHECKOUT_FLAG = "--trust-checkout";

/** Where and how a bundle runs. */
export interface BundleRunOptions {
  /** The bundle file (its folder and project are part of the checkout). */
  bundle: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The project the tool's chain files are read from. */
  project?: string;
  /** Let the checkout choose interpreters, `.env` and search paths, as `rye run tool` from sources does. */
  trustCheckout?: boolean;
  /** How refusals tell the user to opt in (default: the CLI flag). */
  optIn?: string;
  /** Keys trusted for the bundle: they may also vouch for the tool's dependency files. */
  trustedKeys?: readonly string[];
  /** Every bundled tool's chain files (path relative to the project, SHA-256): the bundle vouches for them by hash. */
  bundledFiles?: readonly { path: string; sha256: string }[];
}

/** The checkout of a bundle run, and the env of the OS with its checkout search entries and other values naming the checkout dropped. */
export function bundleCheckout(o: BundleRunOptions): { checkout: Checkout; osEnv: Record<string, string>; optIn: string } {
  const cwd = o.cwd ?? process.cwd();
  const env = o.env ?? process.env;
  const checkout = checkoutOf({ bundle: o.bundle, cwd, env, project: o.project });
  return { checkout, osEnv: dropCheckoutValues(checkoutEnv(env, checkout).env, checkout, cwd), optIn: o.optIn ?? `pass ${TRUST_CHECKOUT_FLAG} to allow it` };
}

/**
 * Options for a bundled tool's `execute(params, options)`: with `trustCheckout`, the original's
 * behaviour (the OS env, the project's `.env`, interpreters found in the project); without it,
 * the rules above. `execa` is the spawner to guard (the CLI's own).
 */
export function bundleToolOptions(o: BundleRunOptions, plan: { files?: readonly { path: string }[] } | undefined, execa: Execa): RunToolOptions {
  const projectPath = resolve(o.cwd ?? process.cwd(), o.project ?? ".");
  if (o.trustCheckout) {
    // The checkout is trusted: its project's trust store vouches too, and only the runtime's own verify_deps applies.
    const env = o.env ?? process.env;
    const spaces = [{ root: projectPath, label: "project" }, { root: resolve(o.cwd ?? process.cwd(), env.USER_SPACE ?? homedir()), label: "user" }];
    return { projectPath, osEnv: env, execa, verifyDependency: dependencyVerifier({ spaces, env, trustedKeys: o.trustedKeys, cwd: o.cwd }) };
  }
  const { checkout, osEnv, optIn } = bundleCheckout(o);
  const planFiles = (plan?.files ?? []).map((f) => resolve(projectPath, f.path));
  const env = o.env ?? process.env;
  // The user space vouches (unless it lies in the checkout); the checkout's own project trust store does not.
  const userSpace = resolve(o.cwd ?? process.cwd(), env.USER_SPACE ?? homedir());
  const spaces = checkout.contains(userSpace) ? [] : [{ root: userSpace, label: "user" }];
  return {
    projectPath,
    osEnv,
    dotenv: null,
    checkout: { contains: checkout.contains, optIn },
    execa: guardedExeca(execa, { checkout, planFiles, optIn }),
    verifyDependency: dependencyVerifier({ spaces, env, trustedKeys: o.trustedKeys, cwd: o.cwd, vouched: new Map((o.bundledFiles ?? []).map((f) => [resolve(projectPath, f.path), f.sha256])) }),
    defaultVerifyDeps: BUNDLE_DEPS_SCOPE,
    // Python would otherwise read `__pycache__/*.pyc` beside a verified source without re-reading it.
    extraEnv: { PYTHONPYCACHEPREFIX: mkdtempSync(join(tmpdir(), "rye-pycache-")) },
  };
}
