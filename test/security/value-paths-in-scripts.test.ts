import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installedShells, plan, run, which } from "./interpreters-helpers.js";

// Class 1, "rye's paths are values" in a shell script: a folder is named by whoever made the
// checkout (a CI workspace named after a branch), so `{project_path}`, `{tool_dir}`, `{user_space}`
// are bound as data like a caller's value, and where the script's position is not one that takes any
// value (trap or eval text, a nested shell's script, a command name, output written into a file or a
// pipe into a shell) the value must be path-safe: no character there ends a word or opens an
// expansion or a quote. An enumerated matrix of hostile folder names × code positions × path
// placeholders × every installed shell: refused before anything starts, the marker absent. Controls:
// a path-safe folder still runs there, and a hostile one still arrives as data where any value is data.

const root = mkdtempSync(join(tmpdir(), "rye-paths-in-scripts-"));
const work = join(root, "work");
mkdirSync(work);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const { shells, missing } = installedShells();
if (missing.length > 0) console.log(`value-paths-in-scripts: shells not installed, skipped: ${missing.join(", ")}`);

// Each name creates work/M (the script runs in work) if any shell reads the folder name as code.
const HOSTILE = ["w$(touch M)", "w`touch M`", "w;touch M;", "w'$(touch M)'", 'w"$(touch M)"', "w$(touch${IFS}M)", "w|touch M"];
const PLACES = ["project_path", "tool_dir", "user_space"];
/** Code positions: the shell reads the characters of the value again. P is the placeholder. */
const FORMS = [
  "trap 'rm -f P/.lock' EXIT; echo hi",
  "trap \"rm -f P/.lock\" EXIT; echo hi",
  "eval cd P",
  "sh -c \"ls P\"",
  "sh -c 'cd P && echo ok'",
  "echo P > f; sh f",
  "printf '%s\\n' \"cd P\" | sh",
  "P/run.sh",
];

const folder = (name: string) => {
  const d = join(root, `${name.length}-${Buffer.from(name).toString("hex").slice(0, 12)}`, name);
  mkdirSync(d, { recursive: true });
  return d;
};
const MARK = join(work, "M");

describe("rye's paths in a shell script are values: path-safe where the shell reads them again", () => {
  it("refused before anything starts, marker absent (matrix: folder names × code positions × path placeholders × shells)", async () => {
    let count = 0;
    for (const name of HOSTILE) {
      const dir = folder(name);
      for (const shell of shells) {
        for (const form of FORMS) {
          for (const place of PLACES) {
            rmSync(MARK, { force: true });
            const script = form.replaceAll("P", `{${place}}`);
            const r = await run(dir, plan(dir, shell.argv[0]!, [...shell.argv.slice(1), "-c", script], { cwd: work }), {});
            const where = `${shell.name} -c ${JSON.stringify(script)} in ${JSON.stringify(name)}`;
            expect(r.status, where).toBe("error");
            expect(String(r.error), where).toMatch(new RegExp(`^the value of \\{${place}\\} \\(.*\\) holds .* where rye accepts only path-safe values`));
            expect(existsSync(MARK), where).toBe(false);
            count++;
          }
        }
      }
    }
    expect(count).toBe(HOSTILE.length * shells.length * FORMS.length * PLACES.length);
  }, 600_000);

  it("on the stdin of a shell that reads its script there: refused, marker absent (matrix: folder names × shells × path placeholders)", async () => {
    for (const name of HOSTILE) {
      const dir = folder(name);
      for (const shell of shells) {
        for (const place of PLACES) {
          rmSync(MARK, { force: true });
          const r = await run(dir, plan(dir, shell.argv[0]!, shell.argv.slice(1), { cwd: work, input_data: `cd {${place}} && echo ok\n` }), {});
          const where = `${shell.name} < "cd {${place}}" in ${JSON.stringify(name)}`;
          expect(String(r.error), where).toMatch(new RegExp(`^the value of \\{${place}\\} \\(.*\\) holds .*; it is spliced into input_data, the stdin of`));
          expect(existsSync(MARK), where).toBe(false);
        }
      }
    }
    // A data reader takes the hostile folder on stdin; a shell takes a path-safe one.
    const hostile = folder(HOSTILE[0]!);
    const cat = await run(hostile, plan(hostile, "cat", [], { cwd: work, input_data: "{project_path}" }), {});
    expect(cat.data?.stdout, JSON.stringify(cat)).toBe(hostile);
    const safe = folder("ci_2");
    const sh = await run(safe, plan(safe, "/bin/sh", [], { cwd: work, input_data: "cd {tool_dir} && pwd\n" }), {});
    expect(sh.data?.stdout, JSON.stringify(sh)).toBe(`${safe}\n`);
  }, 300_000);

  it("as a whole argument of a command runner (script -qec): refused, marker absent (matrix: folder names × path placeholders)", async () => {
    if (which("script") === null) return console.log("value-paths-in-scripts: script not installed, runner rows skipped");
    for (const name of HOSTILE) {
      const dir = folder(name);
      for (const place of [...PLACES, "tool_path"]) {
        rmSync(MARK, { force: true });
        const r = await run(dir, plan(dir, "script", ["-qec", `{${place}}`, "/dev/null"], { cwd: work }), {});
        const where = `script -qec {${place}} in ${JSON.stringify(name)}`;
        expect(String(r.error), where).toMatch(new RegExp(`^the value of \\{${place}\\} \\(.*\\) holds .*; it is spliced into an argument of script, which runs its arguments`));
        expect(existsSync(MARK), where).toBe(false);
      }
    }
    const safe = folder("ci_3");
    writeFileSync(join(safe, "run.sh"), "#!/bin/sh\necho ran\n", { mode: 0o755 });
    const ok = await run(safe, plan(safe, "script", ["-qec", "{tool_dir}/run.sh", "/dev/null"], { cwd: work }), {});
    expect(String(ok.data?.stdout), JSON.stringify(ok)).toContain("ran");
  }, 120_000);

  it("a path-safe folder still runs in those positions", async () => {
    const dir = folder("ci-branch_1.2+x");
    const r = await run(dir, plan(dir, "/bin/sh", ["-c", "trap 'rm -f {project_path}/.lock' EXIT; eval cd {tool_dir} && sh -c \"echo {user_space}\""], { cwd: work }), {});
    expect(r.data?.stdout, JSON.stringify(r)).toBe(`${dir}\n`);
  });

  it("a hostile folder still arrives as data where any value is data", async () => {
    const dir = folder(HOSTILE[0]!);
    rmSync(MARK, { force: true });
    const r = await run(dir, plan(dir, "/bin/sh", ["-c", "printf '%s\\n' {project_path}; ls -d -- {tool_dir}/"], { cwd: work }), {});
    expect(r.data?.stdout, JSON.stringify(r)).toBe(`${dir}\n${dir}/\n`);
    expect(existsSync(MARK)).toBe(false);
  });
});
