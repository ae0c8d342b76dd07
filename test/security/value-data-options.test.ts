import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ChainElement } from "../../src/tools/build-chain.js";
import { checkSplicedValues } from "../../src/tools/check-shell-script.js";
import { installedShells, plan, run, which } from "./interpreters-helpers.js";

// A data command is data only with options from its allowlist, and a descriptor duplication reaches
// no file only for stdin, stdout and stderr. The matrix: options outside sort's list (an output file
// after an option's `--` argument, a program to run on the spilled chunks) and descriptors other
// than 0-2 opened by commands rye does not read as `exec` × the three channels a value arrives by
// (a placeholder, "$1" after the script, input_data on stdin) × every installed shell. Each row is
// refused at run time before anything starts and by the build, and the marker never exists. A
// liveness pass runs each form in bash with the payload and sees the marker.

const dir = mkdtempSync(join(tmpdir(), "rye-data-options-"));
const work = join(dir, "work");
const MARKER = join(dir, "marker");
const PAYLOAD = `touch ${MARKER}`;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { shells, missing } = installedShells();
if (missing.length > 0) console.log(`value-data-options: shells not installed, skipped: ${missing.join(", ")}`);

/** Forms fed by SRC (a value word) or, with SRC empty, by the script's stdin; F is the written file. */
const OPTION_FORMS = [
  "printf '%s\\n' SRC | sort -T -- -o F; xargs nice < F",
  "printf '%s\\n' SRC | sort -T -- -uoF; xargs nice < F",
  "printf '%s\\n' SRC | sort - -o F; xargs nice < F",
  "printf '%s\\n' SRC | sort --output=F; xargs nice < F",
  "printf '%s\\n' SRC | sort --out F; xargs nice < F",
  "( printf '%s\\n' SRC; seq 1 5000 ) | sort -S 1 --compress-program=sh >/dev/null 2>&1",
  "( printf '%s\\n' SRC; seq 1 5000 ) | sort -S 1 --compress-program sh >/dev/null 2>&1",
  "( printf '%s\\n' SRC; seq 1 5000 ) | sort -S 1 --compress-prog=sh >/dev/null 2>&1",
];
const STDIN_OPTION_FORMS = [
  "sort -T -- -o F; xargs nice < F",
  "sort --output=F; xargs nice < F",
  "( cat; seq 1 5000 ) | sort -S 1 --compress-program=sh >/dev/null 2>&1",
];
const DESCRIPTOR_FORMS = [
  "eval 'exec 3>F'; printf '%s\\n' SRC >&3; exec 3>&-; xargs nice < F",
  "eval 'exec 3<>F'; printf '%s\\n' SRC 1<&3; exec 3>&-; xargs nice < F",
  "builtin exec 3>F; printf '%s\\n' SRC >&3; exec 3>&-; xargs nice < F",
  "eval 'exec 4>F'; printf '%s\\n' SRC 2>&4 >&4; xargs nice < F",
];
const STDIN_DESCRIPTOR_FORMS = ["eval 'exec 3>F'; cat >&3; exec 3>&-; xargs nice < F"];

const F = "out.txt";
const fill = (form: string, src: string) => form.replaceAll("SRC", src).replaceAll("F", F);
const reset = () => {
  rmSync(MARKER, { force: true });
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
};
const buildRefused = (config: Record<string, unknown>) => checkSplicedValues([{ metadata: { config } } as unknown as ChainElement], config).refused.map((r) => r.raw);

type Row = [script: string, after: string[], extra: Record<string, unknown>];
const rows = (forms: readonly string[], stdinForms: readonly string[]): Row[] => [
  ...forms.map((f): Row => [fill(f, "{v}"), [], {}]),
  ...forms.map((f): Row => [fill(f, '"$1"'), ["sh", "{v}"], {}]),
  ...stdinForms.map((f): Row => [fill(f, ""), [], { input_data: "{v}" }]),
];

async function refusedEverywhere(all: readonly Row[]): Promise<number> {
  let count = 0;
  for (const shell of shells) {
    for (const [script, after, extra] of all) {
      reset();
      const argv = [...shell.argv.slice(1), "-c", script, ...after];
      const config = { cwd: work, ...extra };
      const r = await run(dir, plan(dir, shell.argv[0]!, argv, config), { v: PAYLOAD });
      const where = `${shell.name} -c ${JSON.stringify(script)} ${after.join(" ")} ${JSON.stringify(extra)}`;
      expect(r.status, where).toBe("error");
      expect(String(r.error), where).toContain("{v}");
      expect(existsSync(MARKER), where).toBe(false);
      expect(buildRefused({ command: shell.argv[0]!, args: argv, ...config }), where).toContain("{v}");
      count++;
    }
  }
  return count;
}

/** Runs `form` in bash with the payload as "$1" (or on stdin) and says whether the marker appeared. */
function live(form: string, stdin: boolean, shell = "bash"): boolean {
  reset();
  const script = fill(form, stdin ? "" : '"$1"');
  writeFileSync(join(dir, "stdin"), `${PAYLOAD}\n`);
  const wrapped = stdin ? ["-c", 'bash -c "$1" < "$2"', "sh", script, join(dir, "stdin")] : ["-c", script, "sh", PAYLOAD];
  // sort's spill into compressed chunks depends on how the pipe's reads fall: a few tries.
  for (let k = 0; k < 4 && !existsSync(MARKER); k++) spawnSync(which(shell)!, wrapped, { cwd: work, timeout: 20_000 });
  return existsSync(MARKER);
}

const gnuSort = which("sort") !== null && spawnSync("sort", ["--version"]).stdout?.toString().includes("GNU") === true;

describe("a data command is data only with the options on its list", () => {
  it.skipIf(which("bash") === null || !gnuSort)("each form is a working attack when run directly in bash (liveness)", () => {
    for (const form of OPTION_FORMS) expect(live(form, false), `live: ${form}`).toBe(true);
    for (const form of STDIN_OPTION_FORMS) expect(live(form, true), `live stdin: ${form}`).toBe(true);
  }, 120_000);

  it("refused at run and at build, marker absent (forms × channels × shells)", async () => {
    const all = rows(OPTION_FORMS, STDIN_OPTION_FORMS);
    expect(await refusedEverywhere(all)).toBe(all.length * shells.length);
  }, 300_000);

  it("listed options and no options keep a value as data", async () => {
    reset();
    const script = "printf '%s\\n' {v} b | sort -T /tmp -S 1M -r -k 1 -- -; printf '%s\\n' {v} | head -n 1 | cut -c 1-4";
    const r = await run(dir, plan(dir, "/bin/sh", ["-c", script], { cwd: work }), { v: PAYLOAD });
    expect(r.status, JSON.stringify(r)).toBe("success");
    expect(existsSync(MARKER)).toBe(false);
  });
});

describe("a descriptor other than stdin, stdout and stderr counts as a file", () => {
  it.skipIf(which("bash") === null)("each form bash runs is a working attack there (liveness)", () => {
    for (const form of DESCRIPTOR_FORMS.filter((f) => !f.startsWith("builtin"))) expect(live(form, false), `live: ${form}`).toBe(true);
    // `builtin exec` keeps the descriptor open in zsh and mksh (not in bash).
    for (const shell of ["zsh", "mksh"].filter((s) => which(s) !== null)) expect(live(DESCRIPTOR_FORMS[2]!, false, shell), `live ${shell}: ${DESCRIPTOR_FORMS[2]}`).toBe(true);
    for (const form of STDIN_DESCRIPTOR_FORMS) expect(live(form, true), `live stdin: ${form}`).toBe(true);
    expect(live("true {fd}>F; printf '%s\\n' SRC >&10; xargs nice < F", false)).toBe(true);
  }, 120_000);

  it("refused at run and at build, marker absent (forms × channels × shells)", async () => {
    const all = rows(DESCRIPTOR_FORMS, STDIN_DESCRIPTOR_FORMS);
    expect(await refusedEverywhere(all)).toBe(all.length * shells.length);
  }, 300_000);

  it("a named descriptor ({fd}>F, bash) is refused at run time", async () => {
    for (const shell of shells) {
      reset();
      const script = fill("true {fd}>F; printf '%s\\n' \"$1\" >&10; xargs nice < F", "");
      const r = await run(dir, plan(dir, shell.argv[0]!, [...shell.argv.slice(1), "-c", script, "sh", "{v}"], { cwd: work }), { v: PAYLOAD });
      expect(r.status, shell.name).toBe("error");
      expect(String(r.error), shell.name).toContain("{v}");
      expect(existsSync(MARKER), shell.name).toBe(false);
    }
  });

  it("stdout, stderr, closes and /dev/null still take a value", async () => {
    reset();
    const script = "printf '%s\\n' {v} 2>&1 >&2 3>&-; printf '%s\\n' {v} 1>&2 2>/dev/null; cat <&0 >&1";
    const r = await run(dir, plan(dir, "/bin/sh", ["-c", script], { cwd: work, input_data: "{v}" }), { v: PAYLOAD });
    expect(r.status, JSON.stringify(r)).toBe("success");
    expect(existsSync(MARKER)).toBe(false);
  });
});
