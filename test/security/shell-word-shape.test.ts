import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkSplicedValues } from "../../src/tools/check-shell-script.js";
import { installedShells, plan, run } from "./interpreters-helpers.js";

// Class 1, "a value is one word of known shape": a value spliced into a -c script reaches a data
// command only as one word whose start the build knows. Two shell features break that shape before
// any check of the value can see it: a command substitution (its output is whatever its commands
// make of the value, and unquoted it is split into words) and brace expansion (it can drop every
// character before the value). Every installed shell × option-reading data command × such form ×
// hostile value is refused, at run and at build, and the option's marker file never exists.

const dir = mkdtempSync(join(tmpdir(), "rye-word-shape-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { shells, missing } = installedShells();
if (missing.length > 0) console.log(`shell-word-shape: not installed, skipped: ${missing.join(", ")}`);

/** Data commands rye lets take values, each with an option that writes the file M. */
const COMMANDS: [string, (m: string) => string][] = [
  ["sort", (m) => `-o${m}`],
  ["sort", (m) => `--output=${m}`],
  ["uniq", (m) => `--zero-terminated /dev/null ${m}`],
  ["tee", (m) => `-a ${m}`],
];

/**
 * Forms around the value V that change the words it becomes: command substitutions (refused for
 * every value) and brace expansions (a value that may start a word there must not start with '-').
 */
const SUBSTITUTIONS: string[] = [
  "$(printf %s V)",
  "`printf %s V`",
  "a$(printf %s V)",
  "-- $(printf %s V)",
  '"$(printf %s V)"',
  '"$(echo V | tr _ -)"',
  '"`printf %s V`"',
  "$(printf %s V)x",
  '{,}"$(printf %s V)"',
];
const BRACES: [form: string, startsWord: boolean][] = [
  ["{,}V", true],
  ["{a,}V", true],
  ['{,}"V"', true],
  ["x{,-}V", false],
  ["{,}'x'V", false],
];
const FORMS: [string, (value: string) => boolean][] = [
  ...SUBSTITUTIONS.map((f): [string, (value: string) => boolean] => [f, () => true]),
  ...BRACES.map(([f, starts]): [string, (value: string) => boolean] => [f, (value) => starts && value.startsWith("-")]),
];

/** The value in each form: plain, split by a space, or transformed into a dash by `tr`. */
const VALUES = (option: string): string[] => [option, `x ${option}`, option.replace(/^-+/, (d) => "_".repeat(d.length))];

const tag = (s: string) => s.replace(/[^A-Za-z0-9]/g, "_");

describe("a value reaches a data command as one word of known shape, or is refused", () => {
  for (const shell of shells) {
    it(`${shell.name}: command substitutions and brace expansions around a value are refused and write nothing`, async () => {
      let n = 0;
      for (const [command, option] of COMMANDS) {
        for (const [form, refused] of FORMS) {
          for (const make of [0, 1, 2]) {
            const m = join(dir, `M-${tag(shell.name)}-${n++}`);
            const value = VALUES(option(m))[make]!;
            const script = `${command} ${form.replaceAll("V", "{v}")} </dev/null >/dev/null 2>&1; exit 0`;
            const r = await run(dir, plan(dir, shell.argv[0]!, [...shell.argv.slice(1), "-c", script]), { v: value });
            const label = `${shell.name}: ${script} with ${JSON.stringify(value)}`;
            expect(existsSync(m), label).toBe(false);
            if (refused(value)) expect(r.status === "error" ? r.error : `ran: ${JSON.stringify(r).slice(0, 300)}`, label).toMatch(/command substitution|'-'|into a file/);
          }
        }
      }
    });
  }

  it("the build refuses a value inside a substitution that is unquoted, starts an option-reading word or lands where only inert text is taken", () => {
    for (const form of SUBSTITUTIONS) {
      const report = checkSplicedValues([], { command: "sh", args: ["-c", `sort ${form.replaceAll("V", "{v}")}`] });
      expect(report.refused.map((p) => p.raw), form).toEqual(["{v}"]);
    }
    for (const form of ["x=$(printf %s V)", "cmd \"$(printf %s V)\"", "cat > \"$(printf %s V)\""]) {
      const report = checkSplicedValues([], { command: "sh", args: ["-c", form.replaceAll("V", "{v}")] });
      expect(report.refused.map((p) => p.raw), form).toEqual(["{v}"]);
    }
  });

  it("a substitution stays usable where any text is data: quoted, after text or after `--`", () => {
    for (const form of ['sort -- "$(printf %s V)"', 'sort a"$(printf %s V)"', 'echo "x$(printf %s V)"']) {
      const report = checkSplicedValues([], { command: "sh", args: ["-c", form.replaceAll("V", "{v}")] });
      expect(report.refused, form).toEqual([]);
    }
  });
});
