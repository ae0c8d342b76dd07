/**
 * The checkout rule applied to the process a bundle run really starts, after the launcher walk
 * (launchers.ts): `env NAME=value`, `env -u`, `-i`, `-C` and `env -S` change the environment and
 * working directory the next program gets, `timeout`, `nice`, `stdbuf`… pass through to a program
 * that may lie in the checkout, and a shell or interpreter takes its program from an operand.
 * Allowlists, so members nobody listed are covered:
 *   1. every environment value the program gets (the env channel's, an `env` assignment's, the
 *      inherited ones that are left) names no checkout path the plan did not hash, whatever the
 *      variable's name (checkout-mentions.ts); HOME, which a missing variable would not replace
 *      (programs then ask the password database), lies outside the checkout;
 *   2. every program word the walk passes (launchers included), found the way the OS finds it
 *      (PATH as changed so far, the working directory as changed so far), is outside the checkout
 *      or a file the plan hashed; so is a shell's script file, `--rcfile`, a file its `-c` text
 *      sources (`. FILE`, `source FILE`), and an interpreter's
 *      script operand; an interpreter's options name no checkout path at all (`-I`, `-r`, `-M`);
 *   3. the other arguments name no checkout file that is executable or a script (`#!`, ELF, Mach-O)
 *      unless the plan hashed it, except for data commands (data-commands.ts), which run none of
 *      their operands: a program rye does not know may run any operand, and an executable or a
 *      script is what a runner runs; a folder or a data file stays an input the tool works on;
 *   4. when the walk cannot read the words (an option outside a launcher's or shell's grammar, a
 *      program inside `env -S`), none of the remaining words may name a checkout path at all.
 */
import { userInfo } from "node:os";
import { delimiter, isAbsolute, resolve } from "node:path";
import { walkLaunchers, type EnvEffect, type LaunchTrace } from "../runtime/exec/launchers.js";
import { SEARCH_LISTS } from "./checkout-env.js";
import { checkoutMention } from "./checkout-mentions.js";
import { programOperandsProblem, unreadOperand } from "./launch-operands.js";
import { locateProgram, outsidePlan, refuse, where, type LaunchScope, type State } from "./locate-program.js";

/** The environment and working directory after `effects`. */
function applyEffects(start: State, effects: readonly EnvEffect[]): State {
  let env = { ...start.env };
  let cwd = start.cwd;
  for (const e of effects) {
    if ("set" in e) env[e.set] = e.value;
    else if ("unset" in e) delete env[e.unset];
    else if ("clear" in e) env = {};
    else cwd = resolve(cwd, e.chdir);
  }
  return { env, cwd };
}

const base = (word: string) => word.slice(word.lastIndexOf("/") + 1);

/** Why the process may not start under the checkout rule, or null. `env` has its search lists filtered already. */
export function launchProblem(file: string, args: readonly string[], env: Record<string, string>, cwd: string, scope: LaunchScope): string | null {
  const trace: LaunchTrace = { hops: [], words: [], effects: [] };
  const launch = walkLaunchers([file, ...args], trace);
  const start: State = { env, cwd };
  const fromArgv = new Set(trace.effects.flatMap((e) => ("set" in e ? [e.set] : [])));
  for (const hop of trace.hops) {
    const state = applyEffects(start, trace.effects.slice(0, hop.effects));
    const assigned = assignmentProblem(trace.effects.slice(0, hop.effects), start, scope);
    if (assigned) return assigned;
    const program = locateProgram(hop.word, state.env.PATH, state.cwd);
    if (program !== null && outsidePlan(program, scope)) {
      return refuse(`${where(hop.word, hop.at)} starts ${program}, which lies in the checkout and is not a file the bundle's plan hashed`, scope);
    }
  }
  const final = applyEffects(start, trace.effects);
  const envProblem = finalEnvProblem(final, fromArgv, scope);
  if (envProblem) return envProblem;
  const last = trace.hops.at(-1);
  if (!last) return null;
  const operands = trace.words.slice(last.index + 1).filter((w): w is string => w !== null);
  const mention = { checkout: scope.checkout, vouched: scope.vouched, cwd: final.cwd };
  // Words rye cannot read (an unknown launcher or shell option, a program inside env -S): none may name the checkout.
  if (!launch.proven) return unreadOperand(operands, base(last.word), mention, scope);
  return programOperandsProblem(base(last.word), operands, final, mention, scope);
}

/** The assignments `env` made (in argv or its -S string): search lists keep no checkout or relative entry, other values name no checkout path. */
function assignmentProblem(effects: readonly EnvEffect[], start: State, scope: LaunchScope): string | null {
  let cwd = start.cwd;
  for (const e of effects) {
    if ("chdir" in e) cwd = resolve(cwd, e.chdir);
    if (!("set" in e)) continue;
    const named = SEARCH_LISTS.includes(e.set)
      ? (e.value.split(delimiter).find((entry) => entry !== "" && (!isAbsolute(entry) || scope.checkout.contains(entry))) ?? null)
      : checkoutMention(e.value, { checkout: scope.checkout, vouched: scope.vouched, cwd });
    if (named !== null) return refuse(`${where(`${e.set}=${e.value}`, e.at)} gives the program ${e.set} naming ${named}, a path in the checkout that the bundle's plan did not hash`, scope);
  }
  return null;
}

/** HOME first (it has a message of its own), then every value of the program's environment. */
function finalEnvProblem(final: State, fromArgv: ReadonlySet<string>, scope: LaunchScope): string | null {
  const home = final.env.HOME ?? userInfo().homedir;
  if (home && scope.checkout.contains(home)) return homeProblem(home, scope.optIn);
  const mention = { checkout: scope.checkout, vouched: scope.vouched, cwd: final.cwd };
  for (const [name, value] of Object.entries(final.env)) {
    // Search lists of the env channel lost their checkout entries already; argv's were judged above.
    if (SEARCH_LISTS.includes(name) && !fromArgv.has(name)) continue;
    const named = checkoutMention(value, mention);
    if (named !== null) return refuse(`the environment variable ${name} names ${named}, a path in the checkout that the bundle's plan did not hash`, scope);
  }
  return null;
}

/** The refusal for a HOME inside the checkout. */
export function homeProblem(home: string, optIn: string): string {
  return `HOME=${home} lies in the checkout: programs read their startup and configuration files from HOME (a shell's rc files, .gitconfig, Python's user site), so a bundle run does not start them with it; run with HOME outside the checkout (HOME=$(mktemp -d) rye run …), or ${optIn}`;
}

