// `npm run bench`: every figure of the performance targets, measured side by side in one run, printed
// as a table with PASS/MISS per target and written to bench/results/<time>.json and latest.{json,md}.
// Needs `npm run build` first (dist/). The real corpus comes from ../shared when present.
// Usage: node bench/run.mjs [--quick] [--docs]   (--quick: 2k instead of 10k, for a smoke run;
// --docs: write the tables into README.md and docs/performance.md)
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateCorpus } from "../scripts/gen-corpus.mjs";
import { flushWrites, SETTLED_US, settleFileSystem } from "./settle-fs.mjs";
import { benchLsp } from "./lsp.mjs";
import { benchRender } from "./render.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
const RYE = join(ROOT, "bin", "rye.js");
const SHARED = join(ROOT, "..", "shared");
const BIG = process.argv.includes("--quick") ? 2000 : 10000;
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
  const model = (() => {
    try {
      return /model name\s*:\s*(.*)/.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model;
    } catch {
      return cpus()[0]?.model;
    }
  })();
  return { nproc: availableParallelism(), cpu: model, node: process.version, platform: `${process.platform}-${process.arch}`, loadavg: loadavg().map((x) => x.toFixed(2)).join(" ") };
}

function target(name, value, unit, ok, limit) {
  results.targets.push({ name, value: Number(value.toFixed(3)), unit, limit, status: ok ? "PASS" : "MISS" });
}

/** A whole `node bin/rye.js …` process: wall time in ms and its stdout. */
function wholeProcess(args, cwd = ROOT) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [RYE, ...args], { cwd, env, encoding: "utf8", maxBuffer: 1 << 28 });
  return { ms: performance.now() - t, code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The middle one of the runs (whole processes or build children), by wall time; a failed run counts as the slowest. */
function median(runs) {
  return [...runs].sort((a, b) => (a.code === 0 ? a.ms : Infinity) - (b.code === 0 ? b.ms : Infinity))[Math.floor(runs.length / 2)];
}

/** A build in a child process: in-process ms (no start-up), peak RSS and files written. */
function childBuild(project, touch) {
  const args = [join(ROOT, "bench", "build-child.mjs"), project, ...(touch ? ["--touch", touch] : [])];
  const out = execFileSync(process.execPath, args, { env, encoding: "utf8", maxBuffer: 1 << 26 });
  return JSON.parse(out.trim().split("\n").at(-1));
}

function projectCopy(from, name) {
  const dir = join(work, name);
  cpSync(join(from, ".ai"), join(dir, ".ai"), { recursive: true });
  return dir;
}

async function sourcesOf(project) {
  const { readProject } = await import(join(DIST, "project", "read-project.js"));
  return readProject(project, ["directive", "knowledge"]).sources;
}

// ── render ───────────────────────────────────────────────────────────────────────────────────
log("render: compiled vs literal, Eta, Handlebars, interpreter…");
const renderSources = [...(await sourcesOf(ROOT))];
const corpusRoots = ["rye-2026-02/system", "rye-2026-04/core", "rye-2026-04/standard", "rye-2026-04/code", "rye-2026-04/email", "rye-2026-04/web"]
  .map((b) => join(SHARED, "corpus", b))
  .filter(existsSync);
const render = { example: await benchRender(DIST, renderSources) };
for (const root of corpusRoots) render[root.slice(SHARED.length + 8)] = await benchRender(DIST, await sourcesOf(root));
results.figures.render = render;
{
  const all = Object.values(render);
  const w = (e, f) => all.reduce((a, r) => a + r.engines[e][f] * r.engines[e].directives, 0) / all.reduce((a, r) => a + r.engines[e].directives, 0);
  const us = (e) => w(e, "usPerRender");
  const ratio = (e) => Math.exp(all.reduce((a, r) => a + Math.log(r.engines[e].compiledOverThis) * r.engines[e].directives, 0) / all.reduce((a, r) => a + r.engines[e].directives, 0));
  results.figures.renderSummary = Object.fromEntries(["compiled", "literal", "eta", "handlebars", "interpreter"].map((e) => [e, { usPerRender: us(e), compiledOverThis: ratio(e) }]));
  target("render: compiled / hand-written literal", ratio("literal"), "×", ratio("literal") <= 1.3, "≤ 1.3×");
  target("render: compiled / Eta compiled", ratio("eta"), "×", ratio("eta") < 1, "< 1×");
  target("render: compiled / Handlebars precompiled", ratio("handlebars"), "×", ratio("handlebars") < 1, "< 1×");
  results.figures.renderDirectives = all.reduce((a, r) => a + r.directives, 0);
}

// ── the file system, before anything is built (see settle-fs.mjs) ─────────────────────────
results.fileSystem = settleFileSystem(join(work, "probe"), log);

// ── build: real corpus ───────────────────────────────────────────────────────────────────────
const corpusProject = corpusRoots[0] ? projectCopy(corpusRoots[0], "corpus") : projectCopy(ROOT, "corpus");
results.figures.corpusName = corpusRoots[0] ? "rye-2026-02/system" : "example .ai/ (../shared absent)";
log(`build: ${results.figures.corpusName}…`);
{
  // Three cold whole-process builds, the median reported: one sample swings by a third on a shared machine.
  const fresh = () => {
    for (const p of ["out", ".rye-cache"]) rmSync(join(corpusProject, p), { recursive: true, force: true });
  };
  const runs = [0, 1, 2].map(() => (fresh(), wholeProcess(["build", "--project", corpusProject]).ms));
  const cold = { ms: [...runs].sort((a, b) => a - b)[1], runs };
  // A corpus build with errors (2026-02 has tools edited after signing, RYE4009) writes nothing.
  fresh();
  const inproc = childBuild(corpusProject);
  const n = (await sourcesOf(corpusProject)).filter((s) => s.kind === "directive").length;
  results.figures.corpus = { directives: n, wholeProcessMs: cold.ms, wholeProcessRuns: cold.runs, inProcessMs: inproc.ms, cpuMs: inproc.cpuMs, perSecond: n / (inproc.ms / 1000), maxRssMb: inproc.maxRssMb };
  target("whole-process rye build of the real corpus (median of 3)", cold.ms, "ms", cold.ms <= 400, "≤ 400 ms");
}

// ── language server: keystroke to diagnostics on the real corpus ───────────────────────────────
{
  log("lsp: keystroke-to-diagnostics latency…");
  const lsp = await benchLsp(RYE, corpusProject, env);
  results.figures.lsp = lsp;
  target(`rye lsp: keystroke to diagnostics, p95 of ${lsp.keystrokes} edits (${results.figures.corpusName}; median ${lsp.medianMs.toFixed(1)} ms)`, lsp.p95Ms, "ms", lsp.p95Ms <= 50, "≤ 50 ms");
}

// ── build: generated 1k with phase split, and 10k ────────────────────────────────────────────
for (const count of [1000, BIG]) {
  const dir = join(work, `gen${count}`);
  let t = performance.now();
  generateCorpus(dir, count, 1);
  log(`build: generated ${count} (${(performance.now() - t).toFixed(0)} ms to generate)…`);
  // At 10k, three cold builds of three copies, the median reported (one sample swings by a tenth here);
  // copies rather than one project rebuilt, since deleting 21k files slows the next creates (settle-fs.mjs).
  const copies = count === BIG ? [dir, ...[2, 3].map((n) => join(work, `gen${count}-${n}`))] : [dir];
  for (const copy of copies.slice(1)) generateCorpus(copy, count, 1);
  const colds = copies.map((copy) => (flushWrites(), childBuild(copy)));
  const cold = median(colds);
  const peakRss = Math.max(...colds.map((c) => c.maxRssMb));
  results.figures[`cold${count}`] = { directives: count, inProcessMs: cold.ms, cpuMs: cold.cpuMs, perSecond: count / (cold.ms / 1000), maxRssMb: peakRss, written: cold.written, runsMs: colds.map((c) => c.ms) };
  if (count === 1000) {
    // Everything the build wrote except the shared runtime/, against everything under .ai/.
    const size = outputSize(dir);
    results.figures.output1000 = size;
    target(`output size, generated 1k: bytes out ÷ bytes in, excluding runtime/ (${fmtKb(size.outBytes / count)} KB per directive from ${fmtKb(size.sourceBytes / count)} KB)`, size.ratio, "×", size.ratio <= 2, "≤ 2×");
  }
  if (count === BIG) {
    const ok = colds.every((c) => c.code === 0);
    target(`cold build ${count}: directives/s (no process start; median of ${colds.length})`, count / (cold.ms / 1000), "/s", count / (cold.ms / 1000) >= 2000 && ok, "≥ 2000/s");
    target(`cold build ${count}: peak RSS (highest of ${colds.length})`, peakRss, "MB", peakRss <= 300 && ok, "≤ 300 MB");
    // The first rebuild after a cold build cannot trust out/'s just-written folders by their stat
    // (src/cache/up-to-date.ts) and checks everything; the ones after it answer from the stamp.
    const noop = wholeProcess(["build", "--project", dir]);
    const noopIn = childBuild(dir);
    // Median of three: one whole-process sample swings by tens of ms on a shared machine.
    const noopRuns = [0, 1, 2].map(() => wholeProcess(["build", "--project", dir]));
    const noopAgain = median(noopRuns);
    results.figures[`noop${count}`] = { firstWholeProcessMs: noop.ms, wholeProcessMs: noopAgain.ms, wholeProcessRuns: noopRuns.map((r) => r.ms), inProcessMs: noopIn.ms, written: noopIn.written };
    target(`no-op rebuild ${count} (in-process; ${noopIn.written} files written)`, noopIn.ms, "ms", noopIn.ms <= 300 && noopIn.written === 0, "≤ 300 ms, 0 written");
    target(`no-op rebuild ${count}, whole process`, noopAgain.ms, "ms", noopAgain.ms <= 200 && noopAgain.code === 0, "≤ 200 ms");
    const touched = join(dir, ".ai", "directives", "bench", "g0", "task_7.md");
    // Median of three, each a fresh process and a new edit: one sample moves by ~10 ms here.
    const touches = [0, 1, 2].map(() => childBuild(dir, touched));
    const one = median(touches);
    // A rebuild that failed, or wrote nothing, is no measure of one that works.
    const touchedOk = touches.every((r) => r.code === 0 && r.written > 0);
    results.figures[`touch${count}`] = { inProcessMs: one.ms, runsMs: touches.map((r) => r.ms), written: one.written, code: one.code };
    target(`single-file rebuild ${count}, warm process as --watch (median of 3)`, one.ms, "ms", one.ms <= 50 && touchedOk, "≤ 50 ms");
    const verifyRuns = [0, 1, 2].map(() => wholeProcess(["verify", join(dir, "out"), "--project", dir]));
    const verify = median(verifyRuns);
    const modules = Number(/(\d+)/.exec(verify.stdout.split("\n").filter(Boolean).at(-1) ?? "")?.[1] ?? NaN);
    results.figures[`verify${count}`] = { wholeProcessMs: verify.ms, wholeProcessRuns: verifyRuns.map((r) => r.ms), code: verify.code, summary: verify.stdout.split("\n").filter(Boolean).at(-1), modules };
    target(`rye verify of the whole output at ${count}, whole process`, verify.ms, "ms", verify.ms <= 500 && verify.code === 0, "≤ 500 ms");
  } else {
    results.figures.phases1000 = await phases(dir);
    results.figures.tsc = tscOverhead(dir);
    target("tsc --noEmit overhead of 1k emitted modules", results.figures.tsc.overheadMs, "ms", results.figures.tsc.overheadMs <= 1000, "≤ 1000 ms");
  }
}

/** Bytes under `dir/out` (without runtime/) and under `dir/.ai`, and their ratio; `byKind` splits the output by file kind. */
function outputSize(dir) {
  const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  const bytes = (files) => files.reduce((a, f) => a + statSync(f).size, 0);
  const out = join(dir, "out");
  const files = walk(out).filter((f) => !f.slice(out.length + 1).startsWith("runtime"));
  const byKind = {};
  for (const f of files) {
    const rel = f.slice(out.length + 1);
    const kind = f.endsWith(".d.ts") ? ".d.ts" : f.endsWith(".ts") ? ".ts" : f.endsWith(".js") ? ".js" : rel.startsWith("manifest/") ? "manifest shards" : rel;
    byKind[kind] = (byKind[kind] ?? 0) + statSync(f).size;
  }
  const outBytes = bytes(files);
  const sourceBytes = bytes(walk(join(dir, ".ai")));
  return { outBytes, sourceBytes, ratio: outBytes / sourceBytes, byKind };
}
function fmtKb(b) {
  return (b / 1024).toFixed(1);
}

/** Where a non-incremental build's time goes, phase by phase, in this process. */
async function phases(dir) {
  const { readProject } = await import(join(DIST, "project", "read-project.js"));
  const { parseDirective } = await import(join(DIST, "parse", "parse-directive.js"));
  const { compileDirectives } = await import(join(DIST, "compile-directives.js"));
  const { emit } = await import(join(DIST, "emit", "index.js"));
  const { signOutput } = await import(join(DIST, "sign", "sign-output.js"));
  const { generateKeyPair, loadSigningKey, writeKeyPair } = await import(join(DIST, "sign", "keys.js"));
  const { writeOutput } = await import(join(DIST, "output", "write-output.js"));
  const lap = (f) => {
    const t = performance.now();
    const v = f();
    return [performance.now() - t, v];
  };
  const [read, { sources }] = lap(() => readProject(dir));
  const [parse] = lap(() => sources.filter((s) => s.kind === "directive").forEach((s) => parseDirective(s.text, s.path)));
  const [compile, compiled] = lap(() => compileDirectives(sources, null));
  const [emitMs, files] = lap(() => emit(compiled.analyses, "bench", compiled.knowledge));
  const keyDir = join(work, "phase-key");
  writeKeyPair(keyDir, generateKeyPair());
  const key = loadSigningKey(keyDir);
  const [sign, signed] = lap(() => signOutput(files, key, "2026-01-01T00:00:00Z", new Map(), "bench"));
  const [write] = lap(() => writeOutput(join(work, "phase-out"), signed));
  return { read, parse, check: compile - parse, emit: emitMs, sign, write };
}

/** tsc --noEmit of a consumer importing the 1k registry vs the same consumer without it. */
function tscOverhead(dir) {
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const consumer = join(work, "consumer");
  mkdirSync(consumer, { recursive: true });
  const config = { compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", skipLibCheck: true, types: [], allowJs: false } };
  writeFileSync(join(consumer, "package.json"), '{ "type": "module" }\n');
  const run = (name, code) => {
    writeFileSync(join(consumer, `${name}.ts`), code);
    writeFileSync(join(consumer, `tsconfig.${name}.json`), JSON.stringify({ ...config, files: [`${name}.ts`] }));
    const t = performance.now();
    const r = spawnSync(process.execPath, [tsc, "-p", join(consumer, `tsconfig.${name}.json`)], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`tsc failed for ${name}:\n${r.stdout}${r.stderr}`);
    return performance.now() - t;
  };
  const plain = `const greeting: string = "hello";\nexport const shout = (s: string): string => s.toUpperCase() + greeting;\n`;
  // Three of each, taking turns, medians compared: one tsc start-up varies by more than the overhead.
  const importing = `${plain}import { directives } from ${JSON.stringify(join(dir, "out", "index.js"))};\nexport const ids: string[] = Object.keys(directives);\n`;
  const withoutRuns = [];
  const withRuns = [];
  for (let i = 0; i < 3; i++) {
    withoutRuns.push(run("without", plain));
    withRuns.push(run("with", importing));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[1];
  return { withoutMs: median(withoutRuns), withMs: median(withRuns), overheadMs: median(withRuns) - median(withoutRuns), withoutRuns, withRuns };
}

// ── report ───────────────────────────────────────────────────────────────────────────────────
function fileSystemLine(fs) {
  const last = fs.probes.at(-1);
  if (fs.waitedS === 0) return `File system: creating a file took ${last} µs before the builds.`;
  const seen = `took ${fs.probes[0]} µs at first, ${last} µs after waiting ${fs.waitedS} s`;
  return fs.settled
    ? `File system: creating a file ${seen} for files deleted before the bench to be released (see bench/settle-fs.mjs).`
    : `File system: creating a file ${seen}, still above ${SETTLED_US} µs: the build rows are slower than this machine's usual (see bench/settle-fs.mjs).`;
}

results.finished = new Date().toISOString();
const f = results.figures;
const fmt = (x, d = 0) => (typeof x === "number" && Number.isFinite(x) ? x.toFixed(d) : String(x));
const rs = f.renderSummary;
const md = [
  `Machine: ${results.machine.nproc} cores, ${results.machine.cpu}, node ${results.machine.node}, load average at start ${results.machine.loadavg}. ${results.started}.`,
  fileSystemLine(results.fileSystem),
  "",
  "| target | measured | limit | |",
  "|---|---|---|---|",
  ...results.targets.map((t) => `| ${t.name} | ${fmt(t.value, t.unit === "×" ? 2 : 0)} ${t.unit} | ${t.limit} | ${t.status} |`),
  "",
  `Render, ${f.renderDirectives} directives (example project and corpus), mean µs per render and compiled/engine ratio (geometric mean):`,
  "",
  "| engine | µs/render | compiled ÷ engine |",
  "|---|---|---|",
  ...Object.entries(rs).map(([e, v]) => `| ${e} | ${fmt(v.usPerRender, 2)} | ${fmt(v.compiledOverThis, 3)} |`),
  "",
  "| build | directives | ms | CPU ms, all threads | directives/s | peak RSS MB |",
  "|---|---|---|---|---|---|",
  `| cold, ${f.corpusName} (in-process; whole process ${f.corpus.wholeProcessRuns.map((x) => fmt(x)).join(", ")} ms) | ${f.corpus.directives} | ${fmt(f.corpus.inProcessMs)} | ${fmt(f.corpus.cpuMs)} | ${fmt(f.corpus.perSecond)} | ${fmt(f.corpus.maxRssMb)} |`,
  `| cold, generated 1k | 1000 | ${fmt(f.cold1000.inProcessMs)} | ${fmt(f.cold1000.cpuMs)} | ${fmt(f.cold1000.perSecond)} | ${fmt(f.cold1000.maxRssMb)} |`,
  `| cold, generated ${BIG} (median of ${f[`cold${BIG}`].runsMs.map((x) => fmt(x)).join(", ")} ms; peak RSS the highest) | ${BIG} | ${fmt(f[`cold${BIG}`].inProcessMs)} | ${fmt(f[`cold${BIG}`].cpuMs)} | ${fmt(f[`cold${BIG}`].perSecond)} | ${fmt(f[`cold${BIG}`].maxRssMb)} |`,
  `| no-op, ${BIG} (whole process ${fmt(f[`noop${BIG}`].wholeProcessMs)} ms; the first one after the cold build, which records the stamp, ${fmt(f[`noop${BIG}`].firstWholeProcessMs)} ms; ${f[`noop${BIG}`].written} files written) | ${BIG} | ${fmt(f[`noop${BIG}`].inProcessMs)} | | | |`,
  `| one directive changed, ${BIG}, warm process (median of ${f[`touch${BIG}`].runsMs.map((x) => fmt(x)).join(", ")} ms; ${f[`touch${BIG}`].written} files written) | ${BIG} | ${fmt(f[`touch${BIG}`].inProcessMs)} | | | |`,
  "",
  `Output of the generated 1k by kind (bytes, runtime/ excluded): ${Object.entries(f.output1000.byKind).map(([k, v]) => `${k} ${v}`).join(", ")}; sources ${f.output1000.sourceBytes}.`,
  `Phases of a non-incremental build of the generated 1k (ms): ${Object.entries(f.phases1000).map(([k, v]) => `${k} ${fmt(v)}`).join(", ")}.`,
  `tsc --noEmit (median of 3, taking turns): ${fmt(f.tsc.withoutMs)} ms without the modules, ${fmt(f.tsc.withMs)} ms importing the 1k registry. verify ${BIG}: ${fmt(f[`verify${BIG}`].wholeProcessMs)} ms (${f[`verify${BIG}`].summary ?? ""}).`,
].join("\n");
const dir = join(ROOT, "bench", "results");
mkdirSync(dir, { recursive: true });
const json = `${JSON.stringify(results, null, 2)}\n`;
writeFileSync(join(dir, `${results.started.replace(/[:.]/g, "-")}.json`), json);
writeFileSync(join(dir, "latest.json"), json);
writeFileSync(join(dir, "latest.md"), `${md}\n`);
console.log(md);
// --docs: the README shows the targets and the machine, docs/performance.md everything.
if (process.argv.includes("--docs")) {
  const targets = md.split("\n\n").slice(0, 2).join("\n\n");
  replaceBlock(join(ROOT, "README.md"), targets);
  replaceBlock(join(ROOT, "docs", "performance.md"), md);
  log("README.md and docs/performance.md updated");
}

/** Replaces the text between `<!-- bench:start -->` and `<!-- bench:end -->` in `file`. */
function replaceBlock(file, text) {
  const old = readFileSync(file, "utf8");
  const m = /<!-- bench:start -->\n[\s\S]*?<!-- bench:end -->/.exec(old);
  if (!m) throw new Error(`${file} has no <!-- bench:start --> … <!-- bench:end --> block`);
  writeFileSync(file, old.slice(0, m.index) + `<!-- bench:start -->\n${text}\n<!-- bench:end -->` + old.slice(m.index + m[0].length));
}
rmSync(work, { recursive: true, force: true });
