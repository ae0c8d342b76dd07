import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { acquireLock, LockTimeoutError } from "../../src/output/lock.js";
import { pendingJournal, recoverOutput, writeOutput } from "../../src/output/write-output.js";
import { realFs } from "../../src/output/output-fs.js";
import { parseRecord } from "../../src/output/output-record.js";
import { bookkeepingFor } from "../../src/cache/bookkeeping-secret.js";

// Real processes: `node bin/rye.js build` on a project of a few hundred directives, killed with
// SIGKILL at random moments. Whenever it dies, out/ must be the previous complete output or the
// new one, and its signed modules must import with signature checks on.
const BIN = fileURLToPath(new URL("../../bin/rye.js", import.meta.url));
const COUNT = 300;
const USER = mkdtempSync(join(tmpdir(), "rye-user-"));
const childEnv: NodeJS.ProcessEnv = { ...process.env, USER_SPACE: USER };

function directive(i: number, version: string): string {
  return `# D${i}

\`\`\`xml
<directive name="d${i}" version="1.0.0">
  <metadata><description>Directive ${i}</description></metadata>
  <inputs><input name="who" type="string" required="true">Who</input></inputs>
</directive>
\`\`\`

Version ${version}: greet {input:who} from directive ${i}.
`;
}

function writeSources(project: string, version: string): void {
  for (let i = 0; i < COUNT; i++) {
    const dir = join(project, ".ai", "directives", "gen", `g${i % 10}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `d${i}.md`), directive(i, version));
  }
}

/** Every file of an output folder except the writer's own out/.rye/ (lock, journal, staging). */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (rel === "" && e.name === ".rye") continue;
      if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
      else out.set(rel + e.name, readFileSync(join(d, e.name), "utf8"));
    }
  };
  walk(dir, "");
  return out;
}

function build(project: string): { status: number | null; ms: number } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, "build", "--project", project], { env: childEnv, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return { status: r.status, ms: performance.now() - t };
}

/** Imports out/index.js in a fresh node with signature checks on and renders one directive. */
function importsAndRenders(project: string, i: number): string {
  const url = pathToFileURL(join(project, "out", "index.js")).href;
  const script = `const { directives } = await import(${JSON.stringify(url)}); process.stdout.write(directives["gen/g${i % 10}/d${i}"].render({ who: "Ada" }).body);`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { env: childEnv, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`out/ does not import: ${r.stderr}`);
  return r.stdout;
}

function sameAs(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

function killAfter(project: string, ms: number): Promise<void> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, "build", "--project", project], { env: childEnv, stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("exit", () => {
      clearTimeout(timer);
      done();
    });
  });
}

describe("atomic output", () => {
  test("a build killed with SIGKILL at random points leaves the previous or the new complete out/, importable", async () => {
    const project = mkdtempSync(join(tmpdir(), "rye-kill-"));
    const versions = ["one", "two"];
    const expected = new Map<string, Map<string, string>>();
    let ms = 0;
    for (const v of versions) {
      writeSources(project, v);
      ms = Math.max(ms, build(project).ms);
      expected.set(v, snapshot(join(project, "out")));
    }
    // Random kill points, fixed seed so a failure can be replayed: some anywhere in the build, more
    // around its end, where the journal is written and applied.
    const points = [
      ...fc.sample(fc.integer({ min: 0, max: Math.ceil(ms * 1.5) }), { numRuns: 3, seed: 7 }),
      ...fc.sample(fc.integer({ min: Math.floor(ms * 0.7), max: Math.ceil(ms * 1.3) }), { numRuns: 5, seed: 11 }),
    ];
    let previous = "two";
    const outcomes: string[] = [];
    for (const [k, at] of points.entries()) {
      const next = previous === "one" ? "two" : "one";
      writeSources(project, next);
      await killAfter(project, at);
      // Killed after its commit point, a build leaves a journal: out/ may be a mix until it is replayed,
      // which the next build does first (here: the same function, called directly).
      const pending = pendingJournal(join(project, "out"));
      // The journal is sealed with the build's user-space secret: replayed with that, as the next build would.
      if (pending) expect(recoverOutput(join(project, "out"), realFs, bookkeepingFor(project, childEnv))).toBe("completed");
      expect(pendingJournal(join(project, "out"))).toBeNull();
      const now = snapshot(join(project, "out"));
      const which = sameAs(now, expected.get(previous)!) ? previous : sameAs(now, expected.get(next)!) ? next : null;
      expect(which, `kill ${k} after ${at} ms left a mixed out/`).not.toBeNull();
      expect(importsAndRenders(project, k)).toBe(`Version ${which}: greet Ada from directive ${k}.`);
      outcomes.push(`${at}ms→${which === previous ? "previous" : "new"}${pending ? " (journal replayed)" : ""}`);
      previous = which!;
    }
    // The project still builds normally after all those kills, and a stale lock was taken over.
    writeSources(project, "one");
    build(project);
    expect(sameAs(snapshot(join(project, "out")), expected.get("one")!)).toBe(true);
    expect(existsSync(join(project, "out", ".rye", "lock"))).toBe(false);
    // No journal or staging left. (A kill between writing a lock candidate and linking it may leave that candidate.)
    // (The record's seal, out/.rye/record.seal, is the build's own and stays.)
    expect(readdirSync(join(project, "out", ".rye")).filter((f) => !/^lock\.\d+\.[0-9a-f]+$/.test(f)).sort()).toEqual([".gitignore", "record.seal"]);
    expect(lstatSync(join(project, "out")).isDirectory()).toBe(true);
    const verify = spawnSync(process.execPath, [BIN, "verify", "out", "--verbose"], { cwd: project, env: childEnv, encoding: "utf8" });
    expect(verify.status, verify.stdout.split("\n").filter((l) => !l.startsWith("verified")).join("\n") + verify.stderr).toBe(0);
    expect(verify.stdout).toContain("d0.js");
    // `rye verify` walking the project finds the signed modules in out/.
    const walk = spawnSync(process.execPath, [BIN, "verify", "--verbose"], { cwd: project, env: childEnv, encoding: "utf8" });
    // (The sources themselves are unsigned, so the exit code is 1; the modules under out/ verify.)
    expect(walk.stdout).toMatch(/^verified +module +out\/directives\/gen\/g0\/d0\.js /m);
    expect(walk.stdout).not.toMatch(/^(?!verified|unsigned +directive).*out\//m);
    console.log(`SIGKILL points (build ≈ ${Math.round(ms)} ms): ${outcomes.join(", ")}`);
  }, 120_000);

  test("concurrent builds of one project serialise on the lock and leave a complete out/", async () => {
    const project = mkdtempSync(join(tmpdir(), "rye-concurrent-"));
    writeSources(project, "one");
    build(project);
    const one = snapshot(join(project, "out"));
    writeSources(project, "two");
    const runs = await Promise.all(
      [0, 1, 2].map(
        () =>
          new Promise<number | null>((done) => {
            const child = spawn(process.execPath, [BIN, "build", "--project", project], { env: childEnv, stdio: "ignore" });
            child.on("exit", (code) => done(code));
          }),
      ),
    );
    expect(runs).toEqual([0, 0, 0]);
    const now = snapshot(join(project, "out"));
    expect(sameAs(now, one)).toBe(false);
    writeSources(project, "two");
    build(project);
    expect(sameAs(snapshot(join(project, "out")), now)).toBe(true);
    expect(importsAndRenders(project, 3)).toBe("Version two: greet Ada from directive 3.");
  }, 120_000);
});

describe("writeOutput", () => {
  const files = (entries: Record<string, string>) => new Map(Object.entries(entries));
  /** The output without the record and .gitattributes every build adds. */
  const built = (out: string) => Object.fromEntries([...snapshot(out)].filter(([rel]) => rel !== "rye-files.json" && rel !== ".gitattributes"));

  test("out/ is a plain folder; a build that changes nothing writes nothing; bundle.mjs survives", () => {
    const root = mkdtempSync(join(tmpdir(), "rye-write-"));
    const out = join(root, "out");
    expect(writeOutput(out, files({ "index.js": "1", "directives/a.js": "a1" }))).toEqual({ written: 4, removed: 0 });
    expect(lstatSync(out).isDirectory()).toBe(true);
    expect(readdirSync(root)).toEqual(["out"]);
    writeFileSync(join(out, "bundle.mjs"), "bundle");
    expect(writeOutput(out, files({ "index.js": "1", "directives/a.js": "a1" }))).toEqual({ written: 0, removed: 0 });
    expect(writeOutput(out, files({ "index.js": "2", "directives/b.js": "b" }))).toEqual({ written: 3, removed: 1 });
    expect(built(out)).toEqual({ "index.js": "2", "directives/b.js": "b", "bundle.mjs": "bundle" });
    expect(writeOutput(out, files({ "index.js": "3", "directives/b.js": "b" }))).toEqual({ written: 1, removed: 0 });
    expect(writeOutput(out, files({ "index.js": "3", "directives/a.js": "a2" }))).toEqual({ written: 2, removed: 1 });
    expect(built(out)).toEqual({ "index.js": "3", "directives/a.js": "a2", "bundle.mjs": "bundle" });
    expect([...parseRecord(readFileSync(join(out, "rye-files.json"), "utf8"))!]).toEqual([".gitattributes", "index.js", "rye-files.json", "directives/a.js"]);
  });

  test("takes over an older rye's plain out/ by its headers, but never deletes or replaces files no build wrote", () => {
    const root = mkdtempSync(join(tmpdir(), "rye-write-"));
    const out = join(root, "out");
    mkdirSync(join(out, "directives"), { recursive: true });
    writeFileSync(join(out, "index.js"), "// @generated by rye build 0.0.1: do not edit.\n");
    writeFileSync(join(out, "directives", "old.js"), "// rye:signed:2026-01-01T00:00:00Z:x\nold");
    writeFileSync(join(out, "bundle.mjs"), "bundle");
    expect(writeOutput(out, files({ "index.js": "new" }))).toEqual({ written: 3, removed: 1 });
    expect(built(out)).toEqual({ "index.js": "new", "bundle.mjs": "bundle" });

    // An older out/ someone kept notes and vendored code in: refused, naming them, nothing touched.
    const old = join(root, "old");
    mkdirSync(join(old, "vendor"), { recursive: true });
    writeFileSync(join(old, "index.js"), "// @generated by rye build 0.0.1: do not edit.\n");
    writeFileSync(join(old, "NOTES.md"), "mine");
    writeFileSync(join(old, "vendor", "lib.js"), "export const lib = 1;");
    expect(() => writeOutput(old, files({ "index.js": "x" }))).toThrow(/NOTES\.md, vendor\/lib\.js\. rye build never deletes or replaces them/);
    expect(snapshot(old)).toEqual(new Map([["NOTES.md", "mine"], ["index.js", "// @generated by rye build 0.0.1: do not edit.\n"], ["vendor/lib.js", "export const lib = 1;"]]));
    expect(existsSync(join(old, ".rye"))).toBe(false);

    // With a record, a file it does not list is foreign even when it looks generated.
    writeFileSync(join(out, "directives.js"), "// @generated by rye build 0.0.1\n");
    expect(() => writeOutput(out, files({ "index.js": "new" }))).toThrow(/recorded as its own.*: directives\.js\./);
    expect(readFileSync(join(out, "directives.js"), "utf8")).toContain("@generated");
  });

  test("refuses output paths that would leave out/", () => {
    const out = join(mkdtempSync(join(tmpdir(), "rye-write-")), "out");
    for (const bad of ["../evil.js", "directives/../../evil.js", "/etc/evil.js", "a//b.js", "a\\b.js", ".rye/lock"]) {
      expect(() => writeOutput(out, files({ [bad]: "x" }))).toThrow(/refusing to write/);
    }
    expect(existsSync(out)).toBe(false);
  });

  test("the lock waits for a live holder, then reports it; a dead holder's lock is taken over", () => {
    const path = join(mkdtempSync(join(tmpdir(), "rye-lock-")), "lock");
    const release = acquireLock(path);
    expect(() => acquireLock(path, { timeoutMs: 100, pollMs: 10 })).toThrow(LockTimeoutError);
    release();
    acquireLock(path)();
    // A process that has exited: its pid names no running process.
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    writeFileSync(path, `${dead}@${hostname()}`);
    acquireLock(path, { timeoutMs: 100, pollMs: 10 })();
    expect(existsSync(path)).toBe(false);
  });
});
