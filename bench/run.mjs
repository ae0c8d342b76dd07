// `npm run bench`: every performance target as a ratio of two measurements taken in turns in this
// run (bench/turns.mjs), so that a target holds on any machine: start-up against `node -e 0`, a
// cold build against the same file work done alone (bench/io-floor.mjs), verify against reading
// and hashing the same files, render against a hand-written template literal. Prints a table with
// both sides, the spread and PASS/MISS, and writes bench/results/<time>.json and latest.{json,md}.
// Needs `npm run build` first (dist/). The real corpus comes from ../shared when present.
// Usage: node bench/run.mjs [--quick] [--docs]   (--quick: 2k instead of 10k, 3 rounds instead of 5;
// --docs: write the tables into README.md and docs/performance.md)
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateCorpus } from "../scripts/gen-corpus.mjs";
import { flushWrites, settleFileSystem } from "./settle-fs.mjs";
import { benchLsp, firstDiagnostics } from "./lsp.mjs";
import { benchRender } from "./render.mjs";
import { realProject } from "./real-project.mjs";
import { inTurns, spread } from "./turns.mjs";
import { outputSize, phases, tscOverhead } from "./figures.mjs";
import { benchFastPaths } from "./fast-paths.mjs";
import { writeTestCases } from "./test-cases.mjs";
import { report } from "./report.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
const RYE = join(ROOT, "bin", "rye.js");
const SHARED = join(ROOT, "..", "shared");
const QUICK = process.argv.includes("--quick");
const BIG = QUICK ? 2000 : 10000;
const ROUNDS = QUICK ? 3 : 5;
if (!existsSync(join(DIST, "cli", "main.js"))) {
  console.error("dist/ not found: run `npm run build` first");
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), "rye-bench-"));
// A user space of the benchmark's own: the signing key generated on first use lands here.
const env = { ...process.env, USER_SPACE: join(work, "user"), NO_COLOR: "1" };
mkdirSync(env.USER_SPACE);
const results = { machine: machine(), started: new Date().toISOString(), figures: {}, targets: [] };
const log = (s) => process.stderr.write(`${s}\n`);

function machine() {
  let cpu = cpus()[0]?.model;
  try {
    cpu = /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpu;
  } catch {}
  return { nproc: availableParallelism(), cpu, node: process.version, platform: `${process.platform}-${process.arch}`, loadavg: loadavg().map((x) => x.toFixed(2)).join(" ") };
}

/** A target: `turns` is the result of inTurns (a ratio with both sides), `ok` whether the run it measured worked. */
function ratioTarget(name, turns, limit, ok = true, sides = ["", ""]) {
  results.targets.push({ name, kind: "ratio", a: turns.a, b: turns.b, sides, ratio: turns.ratio, limit, status: ok && turns.ratio.median <= limit ? "PASS" : "MISS" });
}
function absoluteTarget(name, s, unit, limit, ok = true) {
  results.targets.push({ name, kind: "absolute", a: s, unit, limit, status: ok && s.median <= limit ? "PASS" : "MISS" });
}

/** A whole process, timed from spawn to exit: { ms, code, stdout }. */
function whole(args, opts = {}) {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { env, encoding: "utf8", maxBuffer: 1 << 28, ...opts });
  return { ms: performance.now() - t, code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const nodeBare = () => whole(["-e", "0"]);
const rye = (...args) => whole([RYE, ...args]);

/** A build in a child process: in-process ms (no start-up), peak RSS, files written, threads. */
function childBuild(project, touch) {
  const args = [join(ROOT, "bench", "build-child.mjs"), project, ...(touch ? ["--touch", touch] : [])];
  const out = execFileSync(process.execPath, args, { env, encoding: "utf8", maxBuffer: 1 << 26 });
  return JSON.parse(out.trim().split("\n").at(-1));
}

async function sourcesOf(project) {
  const { readProject } = await import(join(DIST, "project", "read-project.js"));
  return readProject(project, ["directive", "knowledge"]).sources;
}

// ── render ───────────────────────────────────────────────────────────────────────────────────
log("render: compiled vs literal, Eta, Handlebars, interpreter…");
const corpusRoots = ["rye-2026-02/system", "rye-2026-04/core", "rye-2026-04/standard", "rye-2026-04/code", "rye-2026-04/email", "rye-2026-04/web"]
  .map((b) => join(SHARED, "corpus", b))
  .filter(existsSync);
const render = { example: await benchRender(DIST, await sourcesOf(ROOT)) };
for (const root of corpusRoots) render[root.slice(SHARED.length + 8)] = await benchRender(DIST, await sourcesOf(root));
{
  const all = Object.values(render);
  const n = (e) => all.reduce((a, r) => a + r.engines[e].directives, 0);
  const us = (e) => all.reduce((a, r) => a + r.engines[e].usPerRender * r.engines[e].directives, 0) / n(e);
  const ratio = (e) => Math.exp(all.reduce((a, r) => a + Math.log(r.engines[e].compiledOverThis) * r.engines[e].directives, 0) / n(e));
  const summary = Object.fromEntries(["compiled", "literal", "eta", "handlebars", "interpreter"].map((e) => [e, { usPerRender: us(e), compiledOverThis: ratio(e) }]));
  results.figures.render = { byProject: render, summary, directives: all.reduce((a, r) => a + r.directives, 0) };
  const point = (x) => spread([x]);
  results.targets.push({ name: "render: compiled render() ÷ a hand-written template literal (geometric mean over every directive)", kind: "ratio", a: point(us("compiled")), b: point(us("literal")), sides: ["render()", "literal"], unit: "µs", ratio: point(ratio("literal")), limit: 1.0, status: ratio("literal") <= 1.0 ? "PASS" : "MISS" });
}

// ── the file system, before anything is built (see settle-fs.mjs) ─────────────────────────
results.fileSystem = settleFileSystem(join(work, "probe"), log);

// ── start-up: the commands a user runs by hand, against node -e 0 ───────────────────────────
const real = realProject(ROOT, SHARED, work, RYE, env);
results.figures.realProject = { name: real.name, handled: real.handled };
log(`start-up: ${real.name}…`);
{
  const fresh = () => ["out", ".rye-cache"].forEach((p) => rmSync(join(real.dir, p), { recursive: true, force: true }));
  let written = NaN;
  const cold = await inTurns(() => {
    fresh();
    const r = rye("build", "--project", real.dir);
    written = Number(/\((\d+) files written\)/.exec(r.stdout)?.[1] ?? NaN);
    return r;
  }, nodeBare, ROUNDS);
  const coldOk = cold.lastA.code === 0 && written > 0;
  ratioTarget(`cold \`rye build\` of ${real.name}, ${written} files written ÷ node -e 0`, cold, 2.5, coldOk, ["rye build", "node -e 0"]);
  rye("build", "--project", real.dir); // records the up-to-date stamp
  const noop = await inTurns(() => rye("build", "--project", real.dir), nodeBare, ROUNDS);
  ratioTarget("no-op `rye build` ÷ node -e 0", noop, 1.5, noop.lastA.code === 0 && /\(0 files written\)/.test(noop.lastA.stdout), ["rye build", "node -e 0"]);
  const check = await inTurns(() => rye("build", "--check", "--project", real.dir), nodeBare, ROUNDS);
  ratioTarget("`rye build --check` of an up-to-date tree ÷ node -e 0", check, 1.5, check.lastA.code === 0, ["--check", "node -e 0"]);
  const lsp = await inTurns(() => firstDiagnostics(RYE, real.dir, env), nodeBare, ROUNDS);
  ratioTarget("`rye lsp`: spawn to first diagnostics of an opened directive ÷ node -e 0", lsp, 3, true, ["rye lsp", "node -e 0"]);
  results.figures.lspKeystrokes = await benchLsp(RYE, real.dir, env);
}

// ── generated 1k: output size, phases, the loader's cost, tsc ───────────────────────────────
{
  const dir = join(work, "gen1000");
  generateCorpus(dir, 1000, 1);
  log("build: generated 1000…");
  const cold = childBuild(dir);
  results.figures.cold1000 = cold;
  const size = outputSize(dir);
  results.figures.output1000 = size;
  const kb = (b) => (b / 1024).toFixed(1);
  results.targets.push({ name: `output size, generated 1k: bytes out ÷ bytes in, runtime/ excluded (${kb(size.outBytes / 1000)} KB per directive from ${kb(size.sourceBytes / 1000)} KB)`, kind: "ratio", a: spread([size.outBytes]), b: spread([size.sourceBytes]), sides: ["bytes out", "bytes in"], unit: "B", ratio: spread([size.ratio]), limit: 2, status: size.ratio <= 2 ? "PASS" : "MISS" });
  results.figures.phases1000 = await phases(DIST, dir, work);
  results.figures.fastPaths = await benchFastPaths(DIST, await sourcesOf(dir), cold.ms, ROUNDS);
  results.figures.tsc = tscOverhead(ROOT, dir, work);
  const register = join(DIST, "register", "index.js");
  const load = join(ROOT, "bench", "load-output.mjs");
  const out = join(dir, "out");
  results.figures.loader = await inTurns(() => whole(["--import", register, load, out]), () => whole([load, out]), ROUNDS);
  results.figures.loader.ok = results.figures.loader.lastA.code === 0 && results.figures.loader.lastB.code === 0;
  // `rye test` of the 1k, one case per directive, from the sources (compiled in memory), whole processes.
  const cases = writeTestCases(dir);
  const test = await inTurns(() => rye("test", "--project", dir, "--reporter", "json"), nodeBare, 3);
  results.figures.ryeTest = { cases, ...test, ok: test.lastA.code === 0 };
}

// ── generated 10k: cold build against the I/O floor, verify against read-and-hash ──────────
{
  const copies = [1, 2, 3].map((n) => join(work, `gen${BIG}-${n}`));
  for (const copy of copies) generateCorpus(copy, BIG, 1);
  log(`build: generated ${BIG}, three cold builds, each against the I/O floor…`);
  const builds = [];
  const floors = [];
  for (const [i, copy] of copies.entries()) {
    flushWrites();
    const b = childBuild(copy);
    builds.push(b);
    flushWrites();
    const line = execFileSync(process.execPath, [join(ROOT, "bench", "io-floor.mjs"), "write", copy, join(copy, "out"), join(work, `floor-${i}`), String(b.threads ?? 1)], { encoding: "utf8" });
    floors.push(JSON.parse(line.trim()));
  }
  const turns = { a: spread(builds.map((b) => b.ms)), b: spread(floors.map((f) => f.ms)), ratio: spread(builds.map((b, i) => b.ms / floors[i].ms)) };
  const ok = builds.every((b) => b.code === 0 && b.written === floors[0].files);
  ratioTarget(`cold build ${BIG} (in-process, ${builds[0].written} files on ${builds[0].threads ?? 1} threads) ÷ reading the sources and writing, hashing, renaming the same bytes`, turns, 1.5, ok, ["rye build", "I/O floor"]);
  results.figures[`cold${BIG}`] = { builds, floors, peakRssMb: Math.max(...builds.map((b) => b.maxRssMb)) };
  const dir = copies[0];
  const hash = () => whole([join(ROOT, "bench", "io-floor.mjs"), "hash", join(dir, "out")]);
  const verify = await inTurns(() => rye("verify", join(dir, "out"), "--project", dir), hash, ROUNDS);
  ratioTarget(`\`rye verify\` of the ${BIG} output ÷ reading and hashing the same files (whole processes)`, verify, 1.3, verify.lastA.code === 0, ["rye verify", "read+hash"]);
  rye("build", "--project", dir);
  const touched = join(dir, ".ai", "directives", "bench", "g0", "task_7.md");
  const touches = [0, 1, 2].map(() => childBuild(dir, touched));
  absoluteTarget(`one directive changed at ${BIG}, warm process as --watch (median of 3)`, spread(touches.map((t) => t.ms)), "ms", 10, touches.every((t) => t.code === 0 && t.written > 0));
  const lsp = await benchLsp(RYE, dir, env);
  results.figures[`lsp${BIG}`] = lsp;
  absoluteTarget(`\`rye lsp\` at ${BIG}: keystroke to diagnostics, p95 of ${lsp.keystrokes} edits (median ${lsp.medianMs.toFixed(1)} ms)`, spread([lsp.p95Ms]), "ms", 5);
}

results.finished = new Date().toISOString();
const md = report(results, BIG);
const out = join(ROOT, "bench", "results");
mkdirSync(out, { recursive: true });
const json = `${JSON.stringify(results, null, 2)}\n`;
writeFileSync(join(out, `${results.started.replace(/[:.]/g, "-")}.json`), json);
writeFileSync(join(out, "latest.json"), json);
writeFileSync(join(out, "latest.md"), `${md}\n`);
console.log(md);
// --docs: the README shows the targets and the machine, docs/performance.md everything.
if (process.argv.includes("--docs")) {
  replaceBlock(join(ROOT, "README.md"), md.split("\n\n").slice(0, 2).join("\n\n"));
  replaceBlock(join(ROOT, "docs", "performance.md"), md);
  log("README.md and docs/performance.md updated");
}
rmSync(work, { recursive: true, force: true });

/** Replaces the text between `<!-- bench:start -->` and `<!-- bench:end -->` in `file`. */
function replaceBlock(file, text) {
  const old = readFileSync(file, "utf8");
  const m = /<!-- bench:start -->\n[\s\S]*?<!-- bench:end -->/.exec(old);
  if (!m) throw new Error(`${file} has no <!-- bench:start --> … <!-- bench:end --> block`);
  writeFileSync(file, old.slice(0, m.index) + `<!-- bench:start -->\n${text}\n<!-- bench:end -->` + old.slice(m.index + m[0].length));
}
