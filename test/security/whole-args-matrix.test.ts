// The whole-argument rule, enumerated: programs (each grammar-table entry, command runners, unknown
// names, a program named by a value) × positions (before and after `--`, after -c/-e, operands) ×
// hostile values that each create a marker file if the program reads them as an option or as code.
// Every case runs through the execute primitive for real where the program is installed: a value the
// position does not allow is refused before anything starts, an allowed one reaches the program, and
// the marker never exists. The expectations are stated here per position, not read from the rule.
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { checkSplicedValues } from "../../src/tools/check-shell-script.js";
import { plan, run, which } from "./interpreters-helpers.js";

const dir = mkdtempSync(join(tmpdir(), "rye-whole-args-"));
const M = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(join(dir, "argv.js"), "console.log(JSON.stringify(process.argv.slice(2)))\n");
writeFileSync(join(dir, "argv.py"), "import sys, json\nprint(json.dumps(sys.argv[1:]))\n");
writeFileSync(join(dir, "in.txt"), "TODO one\n");
const repo = join(dir, "repo");
const git = which("git");
if (git) {
  execFileSync(git, ["init", "-q", repo]);
  execFileSync(git, ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"]);
}
const sh = which("sh");
if (sh) symlinkSync(sh, join(dir, "shx")); // a shell under a name no list holds

/** Which values a position accepts, stated from the program's documented grammar. */
type Accepts = "any" | "no-dash" | "no-open" | "no-open-no-dash" | "inert" | "none";
const MAGIC = /^[\s<>+|&=]|[\s|]$/;
const accepts = (a: Accepts, v: string): boolean =>
  a === "any" ? true
  : a === "no-dash" ? !v.startsWith("-")
  : a === "no-open" ? !MAGIC.test(v)
  : a === "no-open-no-dash" ? !MAGIC.test(v) && !v.startsWith("-")
  : a === "inert" ? /^[A-Za-z0-9_]+$/.test(v)
  : false;

const HOSTILE = [
  `--eval=require("fs").writeFileSync(${JSON.stringify(M)},"x")`,
  `-esystem q(touch ${M})`,
  `-oProxyCommand=touch ${M}`,
  `--output=${M}`,
  `-o${M}`,
  `touch ${M}|`,
  `$(touch ${M})`,
  `; touch ${M}`,
  `\ntouch ${M}`,
  `touch ${M}`,
  `-delete`,
  `<${join(dir, "in.txt")}`,
];
const BENIGN = ["plain", "in.txt", "a b/c.txt"];

interface Row {
  name: string;
  program: string;
  command: string;
  args: string[];
  accepts: Accepts;
  env?: Record<string, string>;
}
const P_NODE = "console.log(JSON.stringify(process.argv.slice(1)))";
const P_PERL = 'print join(",", @ARGV), "\\n"';
const ROWS: Row[] = [
  { name: "node -e P {x}", program: "node", command: "node", args: ["-e", P_NODE, "{x}"], accepts: "no-dash" },
  { name: "node -e P -- {x}", program: "node", command: "node", args: ["-e", P_NODE, "--", "{x}"], accepts: "any" },
  { name: "node script {x}", program: "node", command: "node", args: [join(dir, "argv.js"), "{x}"], accepts: "any" },
  { name: "node -e P --require {x}", program: "node", command: "node", args: ["-e", P_NODE, "--require", "{x}"], accepts: "none" },
  { name: "perl -e P {x}", program: "perl", command: "perl", args: ["-e", P_PERL, "{x}"], accepts: "no-open-no-dash" },
  { name: "perl -e P -- {x}", program: "perl", command: "perl", args: ["-e", P_PERL, "--", "{x}"], accepts: "no-open" },
  { name: "perl -n -e P {x}", program: "perl", command: "perl", args: ["-n", "-e", "print if /TODO/", "{x}"], accepts: "no-open-no-dash" },
  { name: "perl -ne P {x}", program: "perl", command: "perl", args: ["-ne", "print if /TODO/", "{x}"], accepts: "none" },
  { name: "python3 -c P {x}", program: "python3", command: "python3", args: ["-c", "import sys; print(sys.argv[1:])", "{x}"], accepts: "any" },
  { name: "python3 script {x}", program: "python3", command: "python3", args: [join(dir, "argv.py"), "{x}"], accepts: "any" },
  { name: "python3 -m module {x}", program: "python3", command: "python3", args: ["-m", "json.tool", "{x}"], accepts: "inert" },
  { name: "git log -1 {x}", program: "git", command: "git", args: ["-C", repo, "log", "-1", "{x}"], accepts: "no-dash" },
  { name: "git log -1 --end-of-options {x}", program: "git", command: "git", args: ["-C", repo, "log", "-1", "--end-of-options", "{x}"], accepts: "any" },
  { name: "git log -1 -- {x}", program: "git", command: "git", args: ["-C", repo, "log", "-1", "--", "{x}"], accepts: "any" },
  { name: "git config {x}", program: "git", command: "git", args: ["-C", repo, "config", "{x}"], accepts: "none" },
  { name: "sort {x}", program: "sort", command: "sort", args: ["{x}"], accepts: "no-dash" },
  { name: "sort -- {x}", program: "sort", command: "sort", args: ["--", "{x}"], accepts: "any" },
  { name: "sort --compress-program {x}", program: "sort", command: "sort", args: ["--compress-program", "{x}", "in.txt"], accepts: "none" },
  { name: "cat {x}", program: "cat", command: "cat", args: ["{x}"], accepts: "no-dash" },
  { name: "printf %s {x}", program: "printf", command: "printf", args: ["%s", "{x}"], accepts: "any" },
  { name: "echo {x}", program: "echo", command: "echo", args: ["{x}"], accepts: "no-dash" },
  { name: "env timeout 5 cat -- {x}", program: "cat", command: "env", args: ["timeout", "5", "cat", "--", "{x}"], accepts: "any" },
  { name: "ssh -o BatchMode=yes {x} uptime", program: "ssh", command: "ssh", args: ["-o", "BatchMode=yes", "{x}", "uptime"], accepts: "none" },
  { name: "flock L -c {x}", program: "flock", command: "flock", args: [join(dir, "lock"), "-c", "{x}"], accepts: "none" },
  { name: "script -qc {x} /dev/null", program: "script", command: "script", args: ["-qc", "{x}", "/dev/null"], accepts: "none" },
  { name: "watch -g -n 1 echo {x}", program: "watch", command: "watch", args: ["-g", "-n", "1", "echo", "{x}"], accepts: "none" },
  { name: "gdb -batch -ex {x}", program: "gdb", command: "gdb", args: ["-batch", "-ex", "{x}"], accepts: "none" },
  { name: "su -c {x} root", program: "su", command: "su", args: ["-c", "{x}", "root"], accepts: "none" },
  { name: "unknown shell name: shx -c {x}", program: "sh", command: join(dir, "shx"), args: ["-c", "{x}"], accepts: "none" },
  { name: "unknown shell name: shx {x}", program: "sh", command: join(dir, "shx"), args: ["{x}"], accepts: "inert" },
  { name: "${SH} -c {x} (named by a value)", program: "sh", command: "${SH}", args: ["-c", "{x}"], accepts: "none", env: { SH: sh ?? "/bin/sh" } },
  { name: "${SH} {x} (named by a value)", program: "sh", command: "${SH}", args: ["{x}"], accepts: "inert", env: { SH: sh ?? "/bin/sh" } },
  { name: "find {x} -maxdepth 0", program: "find", command: "find", args: ["{x}", "-maxdepth", "0"], accepts: "inert" },
  { name: "tar -cf out.tar {x}", program: "tar", command: "tar", args: ["-cf", join(dir, "out.tar"), "{x}"], accepts: "inert" },
];

describe("whole caller values follow the receiving program's grammar (matrix: programs × positions × values)", () => {
  for (const row of ROWS) {
    const installed = which(row.program);
    if (!installed) {
      it.skip(`${row.name}: ${row.program} is not installed`, () => {});
      continue;
    }
    it(row.name, async () => {
      for (const value of [...HOSTILE, ...BENIGN]) {
        rmSync(M, { force: true });
        const r = await run(dir, plan(dir, row.command, row.args, { cwd: dir, timeout: 5 }), { x: value }, row.env);
        const refused = r.status === "error" && /refused/.test(String(r.error));
        expect(refused, `${row.name} with ${JSON.stringify(value)}: ${String(r.error)}`).toBe(!accepts(row.accepts, value));
        if (refused) expect(String(r.error), row.name).toContain("{x}");
        expect(existsSync(M), `${row.name} with ${JSON.stringify(value)}: marker`).toBe(false);
      }
    }, 60_000);
  }
});

describe("the build reports what the run will refuse, at the placeholder (RYE4012 for no value, RYE4013 for inert only)", () => {
  it("every row: refused when no value passes, inert-only when only inert values pass, silent otherwise", () => {
    for (const row of ROWS) {
      // A command named by a value is judged by the run, once the value names a program.
      if (row.command.startsWith("${")) continue;
      const report = checkSplicedValues([], { command: row.command, args: row.args });
      const refused = report.refused.map((p) => p.raw);
      const inert = report.inert.map((p) => p.raw);
      expect(refused, row.name).toEqual(row.accepts === "none" ? ["{x}"] : []);
      expect(inert, row.name).toEqual(row.accepts === "inert" ? ["{x}"] : []);
    }
  });
});
