// Decision #25: an internal error in any build thread (here a real stack overflow, injected with a
// preload module the way a deep recursion in a parser or emitter would cause one) is a non-zero exit
// with a located RYE1010 naming the item, and nothing is written: never exit 0, never half an out/.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BIN, cleanEnv, tempDir } from "./helpers.js";

/** Items enough for a parallel build (PARALLEL_FROM is 500): both threads claim some. */
const ITEMS = 600;
const MARKER = "RYE-TEST-CRASH";

/** A preload that overflows the stack on any `replace` over a text holding the marker, on the threads `where` selects. */
const preload = (where: "worker" | "main" | "any") => `
import { isMainThread } from "node:worker_threads";
const replace = String.prototype.replace;
const here = ${JSON.stringify(where)} === "any" || (${JSON.stringify(where)} === "main") === isMainThread;
String.prototype.replace = function (...args) {
  if (here && this.includes(${JSON.stringify(MARKER)})) {
    const deeper = (n) => deeper(n + 1) + 1;
    deeper(0);
  }
  return replace.apply(this, args);
};
`;

let root: string;
const directive = (name: string, marked: boolean) =>
  `# ${name}\n\n\`\`\`xml\n<directive name="${name}" version="1.0.0">\n  <metadata><description>${marked ? MARKER : "plain"}</description></metadata>\n</directive>\n\`\`\`\n\nHello.\n`;

/** A project where the items at `marked` positions hold the marker. */
function project(name: string, marked: (i: number) => boolean): string {
  const dir = join(root, name);
  mkdirSync(join(dir, ".ai", "directives"), { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  for (let i = 0; i < ITEMS; i++) {
    const id = `d${String(i).padStart(3, "0")}`;
    writeFileSync(join(dir, ".ai", "directives", `${id}.md`), directive(id, marked(i)));
  }
  return dir;
}

function build(dir: string, where: "worker" | "main" | "any" | null, jobs: number) {
  const args = where ? ["--import", join(root, `crash-${where}.mjs`)] : [];
  const r = spawnSync(process.execPath, [...args, BIN, "build", "--jobs", String(jobs), "--allow-unsigned"], { cwd: dir, env: cleanEnv({}), encoding: "utf8", timeout: 120_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

beforeAll(() => {
  root = tempDir("rye-crash-");
  for (const w of ["worker", "main", "any"] as const) writeFileSync(join(root, `crash-${w}.mjs`), preload(w));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("an internal error on any build thread", () => {
  test.each([
    ["a build worker", "worker", 2],
    ["the main thread of a parallel build", "main", 2],
    ["a one-thread build", "any", 1],
  ] as const)("on %s: exit 1, RYE1010 at the item, nothing written", (_what, where, jobs) => {
    const dir = project(`p-${where}-${jobs}`, () => true);
    const r = build(dir, where, jobs);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/\.ai\/directives\/d\d{3}\.md:1:1 - error RYE1010: Internal compiler error while compiling this item \(RangeError: Maximum call stack size exceeded\)/);
    expect(r.out).not.toMatch(/RYE8006/);
    expect(existsSync(join(dir, "out"))).toBe(false);
  }, 180_000);

  test("names the one item that failed, wherever it is compiled", () => {
    const dir = project("p-one", (i) => i === 437);
    const r = build(dir, "any", 2);
    expect(r.status).toBe(1);
    expect(r.out).toContain(".ai/directives/d437.md:1:1 - error RYE1010");
    expect(existsSync(join(dir, "out"))).toBe(false);
  }, 180_000);

  test("control: the same project without the injected bug builds and exits 0", () => {
    const dir = project("p-control", () => true);
    const r = build(dir, null, 2);
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, "out", "directives", "d437.js"))).toBe(true);
  }, 180_000);
});
