/**
 * The operands of the program a bundle run's launcher walk reaches (launch-guard.ts, rules 2 and 3):
 * where a shell or interpreter takes its program from must not be an unhashed checkout file, and
 * any other argument must not name a checkout file that is executable or a script.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { readRegular } from "../project/read-regular.js";
import { DATA_COMMANDS } from "../runtime/exec/data-commands.js";
import { isInterpreter, programPlace } from "../runtime/exec/interpreters.js";
import { shellFamily } from "../runtime/exec/shell-options.js";
import { checkoutMention, checkoutMentions, type MentionScope } from "./checkout-mentions.js";
import { locateProgram, outsidePlan, refuse, type LaunchScope, type State } from "./locate-program.js";

// First bytes of a file the kernel or an interpreter runs: `#!`, ELF, Mach-O (both byte orders, 32 and 64 bit, fat).
const RUNNABLE_MAGIC = [[0x23, 0x21], [0x7f, 0x45, 0x4c, 0x46], [0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe], [0xca, 0xfe, 0xba, 0xbe]];

/**
 * Whether `path` is a regular file with an execute bit, or one whose first bytes say it is a script
 * or a binary. Read through the one reader (no FIFO waits); a file over the source limit is judged
 * by its mode alone.
 */
export function runnableFile(path: string): boolean {
  try {
    const st = statSync(path);
    if (!st.isFile()) return false;
    if ((st.mode & 0o111) !== 0) return true;
    const head = readRegular(path, { kind: "source", link: { links: "follow" } });
    return RUNNABLE_MAGIC.some((magic) => magic.length <= head.length && magic.every((b, i) => head[i] === b));
  } catch {
    return false;
  }
}

/** Rule 3: the first operand naming an unhashed checkout file that is executable or a script. */
export function runnableOperand(operands: readonly string[], program: string, mention: MentionScope, scope: LaunchScope): string | null {
  for (const operand of operands) {
    const file = checkoutMentions(operand, mention).find((p) => runnableFile(resolve(mention.cwd, p)));
    if (file !== undefined) {
      return refuse(`an argument of ${program}, ${JSON.stringify(operand)}, names ${file}: a file in the checkout that can run (executable or a script) and that the bundle's plan did not hash`, scope);
    }
  }
  return null;
}

/** The first operand naming any checkout path the plan did not hash: for words whose role rye cannot read. */
export function unreadOperand(operands: readonly string[], program: string, mention: MentionScope, scope: LaunchScope): string | null {
  for (const operand of operands) {
    const named = checkoutMention(operand, mention);
    if (named !== null) return refuse(`${program} is started with options rye cannot read, and its argument ${JSON.stringify(operand)} names ${named}, a path in the checkout that the bundle's plan did not hash`, scope);
  }
  return null;
}

/** Rules 2 and 3 for the program the walk reached, by what kind of program it is. */
export function programOperandsProblem(name: string, operands: readonly string[], final: State, mention: MentionScope, scope: LaunchScope): string | null {
  if (shellFamily(name, false) || shellFamily(name, true)) return shellProblem(name, operands, final, mention, scope);
  if (isInterpreter(name)) return interpreterProblem(name, operands, mention, scope);
  if (DATA_COMMANDS.has(name)) return null;
  return runnableOperand(operands, name, mention, scope);
}

const codeFile = (program: string, role: string, word: string, path: string, scope: LaunchScope) =>
  refuse(`${program} would run ${JSON.stringify(word)} as its ${role}: ${path} lies in the checkout and is not a file the bundle's plan hashed`, scope);

/**
 * A shell runs a script file (its first operand without `-c`; bash looks it up on PATH when the
 * working directory has none), an `--rcfile`/`--init-file`, or the `-c` text with its operands.
 */
function shellProblem(name: string, operands: readonly string[], final: State, mention: MentionScope, scope: LaunchScope): string | null {
  let inline = false;
  let i = 0;
  for (; i < operands.length; i++) {
    const a = operands[i]!;
    if (a === "--" || a === "-") {
      i++;
      break;
    }
    if (a === "--rcfile" || a === "--init-file") {
      const file = operands[++i] ?? "";
      if (outsidePlan(resolve(final.cwd, file), scope)) return codeFile(name, "startup file", file, resolve(final.cwd, file), scope);
      continue;
    }
    if (a.startsWith("--")) continue;
    if (!/^[-+]./.test(a)) break;
    for (const c of a.slice(1)) {
      if (c === "o" || c === "O") i++;
      else if (c === "c" && a.startsWith("-")) inline = true;
    }
  }
  if (inline) return sourcedFile(name, operands[i] ?? "", final, scope) ?? runnableOperand(operands.slice(i), name, mention, scope);
  const script = operands[i];
  if (script === undefined) return null;
  const candidates = [resolve(final.cwd, script), ...(script.includes("/") ? [] : [locateProgram(script, final.env.PATH, final.cwd)])];
  const inCheckout = candidates.find((p): p is string => p !== null && outsidePlan(p, scope));
  return inCheckout === undefined ? null : codeFile(name, "script", script, inCheckout, scope);
}

// `. FILE` / `source FILE` in a `-c` text: the file is program text whatever its mode.
const SOURCED = /(?:^|[\s;&|(])(?:\.|source)\s+([^\s;&|()<>'"$`]+)/g;

/** The first file a `-c` text sources that lies in the checkout unhashed: a script operand inside the text. */
function sourcedFile(name: string, text: string, final: State, scope: LaunchScope): string | null {
  for (const m of text.matchAll(SOURCED)) {
    const path = resolve(final.cwd, m[1]!);
    if (outsidePlan(path, scope)) return codeFile(name, "sourced file", m[1]!, path, scope);
  }
  return null;
}

/**
 * An interpreter's options name no checkout path (`-I dir`, `-r file`, `-M`), its script operand
 * is outside the checkout or hashed (then the script's own arguments are its business), and inline
 * code and the arguments after it name no runnable checkout file.
 */
function interpreterProblem(name: string, operands: readonly string[], mention: MentionScope, scope: LaunchScope): string | null {
  const place = programPlace(name, operands);
  // Stdin or an option outside the grammar: where the options end is not known, so rule 3 only.
  if (place.index < 0) return runnableOperand(operands, name, mention, scope);
  for (const option of operands.slice(0, place.index)) {
    const named = checkoutMention(option, mention);
    if (named !== null) return refuse(`an option of ${name}, ${JSON.stringify(option)}, names ${named}: a path in the checkout that the bundle's plan did not hash`, scope);
  }
  if (place.source === "file") {
    const script = operands[place.index]!;
    const path = resolve(mention.cwd, script);
    if (outsidePlan(path, scope)) return codeFile(name, "script", script, path, scope);
    if (scope.checkout.contains(path)) return null;
    return runnableOperand(operands.slice(place.index + 1), name, mention, scope);
  }
  return runnableOperand(operands.slice(place.index), name, mention, scope);
}
