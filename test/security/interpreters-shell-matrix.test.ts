import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { hostileFragments, hostileValue, INERT, installedShells, plan, run, which, type Shell } from "./interpreters-helpers.js";

// Class 1, values into interpreters: every installed POSIX-family shell, reached directly and through
// launchers (env, env -i, env -S, timeout, nice, nohup, setsid, stdbuf, taskset, chrt, ionice) with
// several option clusters, runs scripts that put a hostile value in every context the attacker
// used: data commands, let, declare -i, printf -v, read, test -v, [ -gt ], [[ -gt ]], ${!x},
// assignment then $((x)), for lists, here-documents, case, eval, command-name position, nested
// shells and interpreters. Each case is refused (naming why) or runs with the value as data; the
// marker file a value would create if read as code never exists.

const dir = mkdtempSync(join(tmpdir(), "rye-interp-matrix-"));
const MARKER = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { shells, missing } = installedShells();
if (missing.length > 0) console.log(`interpreters-shell-matrix: not installed, skipped: ${missing.join(", ")}`);

type Expect = "full" | "inert" | "refused";
/** [script with {v}, what rye must do, the output a full value gives (when the shell is known to run it)]. */
const CONTEXTS: [string, Expect, ((v: string) => string)?][] = [
  [`printf '<%s>' {v}`, "full", (v) => `<${v}>`],
  [`printf '<%s>' "a {v} b" 'c {v} d'`, "full", (v) => `<a ${v} b><c ${v} d>`],
  [`printf '<%s>' "$(printf '%s' "in {v}")"`, "full", (v) => `<in ${v.replace(/\n+$/, "")}>`],
  [`timeout 5 printf '<%s>' {v}`, "full", (v) => `<${v}>`],
  [`env printf '<%s>' {v}`, "full", (v) => `<${v}>`],
  [`command printf '<%s>' {v}`, "full", (v) => `<${v}>`],
  [`nice -n 1 printf '<%s>' {v}`, "full", (v) => `<${v}>`],
  [`cat -- {v} 2>/dev/null; printf ok`, "full"],
  [`echo {v} | cat >/dev/null`, "full"],
  [`cat "{v}" 2>/dev/null; printf ok`, "full"],
  [`: > {v}.out 2>/dev/null; printf ok`, "full"],
  [`printf '%d' {v}`, "refused"],
  [`test -v {v}`, "refused"],
  [`[ {v} -gt 0 ]`, "refused"],
  [`x={v}; echo $((x))`, "refused"],
  [`x={v}; echo "\${!x}"`, "refused"],
  [`x="$(printf '%s' {v})"; echo $(( x ))`, "refused"],
  [`for i in {v}; do echo $(( i )); done`, "refused"],
  [`python3 -c "print('{v}')"`, "inert"],
  [`cd {v} 2>/dev/null; printf ok`, "inert"],
  [`let {v}`, "refused"],
  [`declare -i n={v}`, "refused"],
  [`typeset -i n={v}`, "refused"],
  [`printf -v x {v}`, "refused"],
  [`read {v} </dev/null`, "refused"],
  [`unset {v}`, "refused"],
  [`export {v}`, "refused"],
  [`[[ {v} -gt 0 ]]`, "refused"],
  [`(( {v} > 0 ))`, "refused"],
  [`echo $(( {v} + 1 ))`, "refused"],
  [`a[{v}]=1`, "refused"],
  [`cat <<EOF\n{v}\nEOF`, "refused"],
  [`case {v} in *) echo hi;; esac`, "refused"],
  [`eval "echo {v}"`, "refused"],
  [`{v}`, "refused"],
  [`nohup {v}`, "refused"],
  [`sh -c {v}`, "refused"],
  [`f() { echo "$1"; }; f {v}`, "refused"],
  [`trap {v} EXIT`, "refused"],
  [`echo $'{v}'`, "refused"],
  // Arithmetic and code the reader once read as plain text: bash's $[ ], zsh's unbraced subscripts
  // (also after $#, $+, ${…}, inside "…" and in redirection targets), zsh modifiers and glob
  // qualifiers, process substitutions (<( ), >( ), zsh =( )), ksh's ${ …; } and ${|…}.
  [`echo total: $[{v} + 1]`, "refused"],
  [`echo "$[ {v} ]"`, "refused"],
  [`a=x; echo chosen: $a[{v}]`, "refused"],
  [`a=x; echo "chosen: $a[{v}]"`, "refused"],
  [`a=x; echo $#a[{v}]`, "refused"],
  [`a=x; echo "$#a[{v}]"`, "refused"],
  [`a=x; echo $+a[{v}]`, "refused"],
  [`a=x; echo \${a}[{v}]`, "refused"],
  [`a=x; echo $a[1][{v}]`, "refused"],
  [`a=x; cat /dev/null > ./$a[{v}]`, "refused"],
  [`a=x; echo $a:h{v}`, "refused"],
  [`echo *(e:'true':) {v}`, "refused"],
  [`cat <(echo {v})`, "refused"],
  [`cat =(echo {v})`, "refused"],
  [`echo \${ echo x; } {v}`, "refused"],
  [`echo \${|REPLY=1;} {v}`, "refused"],
  [`echo "\${a:-"}"}" {v}`, "refused"],
  // A placeholder after expansions that may be empty may still start its word (leading '-').
  [`cat "$E"{v} 2>/dev/null; printf ok`, "full"],
  // A substitution's output is split unquoted, and may start an option: refused for every value.
  [`cat $(printf %s {v}) 2>/dev/null; printf ok`, "refused"],
  [`cat \`printf %s {v}\` 2>/dev/null; printf ok`, "refused"],
  [`cat "$(printf %s {v})" 2>/dev/null; printf ok`, "refused"],
  // Brace expansion may drop the text before a value: it may start its word.
  [`cat {,}{v} 2>/dev/null; printf ok`, "full"],
];
/** Contexts where a value starting with '-' would be an option (no `--` before it). */
const NO_DASH = new Set([`echo {v} | cat >/dev/null`, `cat "{v}" 2>/dev/null; printf ok`, `cat "$E"{v} 2>/dev/null; printf ok`, `cat {,}{v} 2>/dev/null; printf ok`]);
// A redirection's file name (docs/security-model.md, class 1): it may not hold a newline or NUL, nor
// resolve under /dev, where bash and ksh read names such as /dev/tcp/HOST/PORT themselves.
const REDIRECT_TARGET = new Set([`: > {v}.out 2>/dev/null; printf ok`]);
const notAFileName = (v: string) => /[\n\0]/.test(v) || (v.startsWith("/") && /^\/dev(?:\/|$)/.test(posix.normalize(v)));

interface Launcher {
  name: string;
  /** Builds the argv from the shell's argv and the shell options + script. */
  argv: (shell: Shell, rest: string[]) => string[];
}

const SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";
const available = (name: string) => which(name) !== null;
const LAUNCHERS: Launcher[] = ([
  { name: "direct", argv: (s, rest) => [...s.argv, ...rest] },
  { name: "env", argv: (s, rest) => ["env", ...s.argv, ...rest] },
  { name: "env -i PATH=…", argv: (s, rest) => ["env", "-i", `PATH=${SYSTEM_PATH}`, "LC_ALL=C.UTF-8", ...s.argv, ...rest] },
  { name: "env -u X --", argv: (s, rest) => ["env", "-u", "X", "--", ...s.argv, ...rest] },
  // env -S splits its string into the shell and its options; the script stays its own argument.
  { name: "env -S", argv: (s, rest) => ["env", "-S", [...s.argv, ...rest.slice(0, -1)].join(" "), rest.at(-1)!] },
  { name: "timeout", argv: (s, rest) => ["timeout", "-s", "KILL", "-k", "5", "15", ...s.argv, ...rest] },
  { name: "nice", argv: (s, rest) => ["nice", "-n", "5", ...s.argv, ...rest] },
  { name: "nohup", argv: (s, rest) => ["nohup", ...s.argv, ...rest] },
  { name: "setsid", argv: (s, rest) => ["setsid", ...s.argv, ...rest] },
  { name: "stdbuf", argv: (s, rest) => ["stdbuf", "-oL", ...s.argv, ...rest] },
  { name: "taskset", argv: (s, rest) => ["taskset", "-c", "0", ...s.argv, ...rest] },
  { name: "chrt", argv: (s, rest) => ["chrt", "-o", "0", ...s.argv, ...rest] },
  { name: "ionice", argv: (s, rest) => ["ionice", "-c", "3", ...s.argv, ...rest] },
  { name: "chain", argv: (s, rest) => ["env", "timeout", "15", "nice", "stdbuf", "-oL", "setsid", ...s.argv, ...rest] },
] as Launcher[]).filter((l) => l.name === "direct" || l.name.startsWith("env") || l.name === "chain" || available(l.name.split(" ")[0]!));

const optionSets = (s: Shell): string[][] => [["-c"], ["-e", "-c"], ["-ec"], ["+x", "-c"], ...(s.bashOptions ? [["--norc", "-O", "nullglob", "-c"], ["-o", "pipefail", "-c"]] : [])];

async function check(shell: Shell, launcher: Launcher, options: string[], ctx: number, value: string, viaEnv: boolean) {
  const [template, expected, output] = CONTEXTS[ctx]!;
  const script = viaEnv ? template.replaceAll("{v}", "${HOSTILE}") : template;
  const argv = launcher.argv(shell, [...options, script]);
  const response = await run(dir, plan(dir, argv[0]!, argv.slice(1), { cwd: dir }), viaEnv ? {} : { v: value }, { LC_ALL: "C.UTF-8", ...(viaEnv ? { HOSTILE: value } : {}) });
  const label = `${launcher.name} ${shell.name} ${options.join(" ")} ${JSON.stringify(script)} ${JSON.stringify(value)}`;
  expect(existsSync(MARKER), label).toBe(false);
  const error = String(response.error ?? "");
  if (expected === "refused") {
    expect(response.status, label).toBe("error");
    // A launch the walk cannot follow to its program (busybox inside an env -S string) is refused
    // before the script is read, with that reason instead: the same fail-closed outcome.
    expect(error, label).toMatch(/cannot prove the shell reads its value as data|-c script that evaluates|rye cannot follow this launch/);
    expect(response.data?.stdout ?? "", label).toBe("");
    return;
  }
  // echo has no `--`: a value starting with '-' at the start of its argument would be an option.
  const leadingDash = NO_DASH.has(template) && value.startsWith("-");
  const badTarget = REDIRECT_TARGET.has(template) && notAFileName(value);
  if ((expected === "inert" && !INERT.test(value)) || leadingDash || badTarget) {
    expect(response.status, label).toBe("error");
    expect(error, label).toMatch(/the value of (\{v\}|\$\{HOSTILE\})/);
    return;
  }
  expect(error, label).not.toMatch(/the value of|cannot prove/);
  if (output && expected === "full" && response.status === "success") expect(response.data.stdout, label).toBe(output(value));
}

describe.skipIf(shells.length === 0)("values in shell scripts, through launchers, in every context (real shells)", () => {
  for (const shell of shells) {
    it(`${shell.name}: every context with the subscript payload, directly and via \${VAR}`, async () => {
      const payload = `a[$(touch ${MARKER})]`;
      for (let ctx = 0; ctx < CONTEXTS.length; ctx++) {
        await check(shell, LAUNCHERS[0]!, ["-c"], ctx, payload, false);
        await check(shell, LAUNCHERS[0]!, ["-c"], ctx, payload, true);
        await check(shell, LAUNCHERS[0]!, ["-c"], ctx, "plain_word", false);
      }
    }, 60_000);

    it(`${shell.name}: every launcher and option cluster (property over contexts and hostile values)`, async () => {
      const value = hostileValue(MARKER);
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: LAUNCHERS.length - 1 }),
          fc.integer({ min: 0, max: optionSets(shell).length - 1 }),
          fc.integer({ min: 0, max: CONTEXTS.length - 1 }),
          value,
          fc.boolean(),
          async (l, o, ctx, v, viaEnv) => check(shell, LAUNCHERS[l]!, optionSets(shell)[o]!, ctx, v, viaEnv),
        ),
        { numRuns: 30 },
      );
    }, 120_000);
  }

  // The per-run random part of the variables' names: an inert value can name a variable in an
  // arithmetic or test context, but never the one holding another placeholder's full value.
  it("an inert value that guesses the name of the variable holding a full value reaches nothing", async () => {
    const payload = `a[$(touch ${MARKER})]`;
    const guesses = ["__rye_1", "__rye__1", "__rye_0_1", "__rye_N_1", "__rye_0000000000000000_1"];
    for (const shell of shells) {
      for (const n of guesses) {
        const script = `echo {m} >/dev/null; [ {n} -gt 0 ] 2>/dev/null; x=1; echo $(( x )) 2>/dev/null; test -v {n}; printf '%d' {n} 2>/dev/null; :`;
        const response = await run(dir, plan(dir, shell.argv[0]!, [...shell.argv.slice(1), "-c", script], { cwd: dir }), { m: payload, n });
        expect(existsSync(MARKER), `${shell.name} ${n}`).toBe(false);
        expect(String(response.error ?? ""), `${shell.name} ${n}`).not.toMatch(/the value of|cannot prove/);
      }
    }
  }, 60_000);

  it("every launcher with every hostile fragment in a data context and in a let (bash, or the first shell)", async () => {
    const shell = shells.find((s) => s.name === "bash") ?? shells[0]!;
    for (const launcher of LAUNCHERS) {
      for (const v of hostileFragments(MARKER)) {
        await check(shell, launcher, ["-c"], 0, v, false);
        await check(shell, launcher, ["-c"], CONTEXTS.findIndex((c) => c[0] === "let {v}"), v, false);
      }
    }
  }, 120_000);
});
