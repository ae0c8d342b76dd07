// The bench's report as markdown: the targets (each ratio with both sides and the spread over the
// rounds), then the figures that explain them.
import { ratioText, sideText } from "./turns.mjs";
import { SETTLED_US } from "./settle-fs.mjs";

const fmt = (x, d = 0) => (typeof x === "number" && Number.isFinite(x) ? x.toFixed(d) : String(x));

function side(s, unit) {
  if (unit === "B") return `${fmt(s.median)} B`;
  return sideText(s, unit ?? "ms");
}

function targetRow(t) {
  if (t.kind === "absolute") return `| ${t.name} | ${sideText(t.a, t.unit)} | | | ≤ ${t.limit} ${t.unit} | ${t.status} |`;
  return `| ${t.name} | ${t.sides[0]} ${side(t.a, t.unit)} | ${t.sides[1]} ${side(t.b, t.unit)} | ${ratioText(t.ratio)} | ≤ ${t.limit}× | ${t.status} |`;
}

function fileSystemLine(fs) {
  const last = fs.probes.at(-1);
  if (fs.waitedS === 0) return `File system: creating a file took ${last} µs before the builds.`;
  const seen = `took ${fs.probes[0]} µs at first, ${last} µs after waiting ${fs.waitedS} s`;
  return fs.settled
    ? `File system: creating a file ${seen} for files deleted before the bench to be released (see bench/settle-fs.mjs).`
    : `File system: creating a file ${seen}, still above ${SETTLED_US} µs: the build rows are slower than this machine's usual (see bench/settle-fs.mjs).`;
}

export function report(results, big) {
  const f = results.figures;
  const m = results.machine;
  const rs = f.render.summary;
  const cold = f[`cold${big}`];
  const loader = f.loader;
  return [
    `Machine: ${m.nproc} cores, ${m.cpu}, node ${m.node}, load average at start ${m.loadavg}. ${results.started}.`,
    fileSystemLine(results.fileSystem),
    "",
    "| target | measured | against | ratio, median (spread) | limit | |",
    "|---|---|---|---|---|---|",
    ...results.targets.map(targetRow),
    "",
    `Real project: ${f.realProject.name}${f.realProject.handled.length ? `; ${f.realProject.handled.join("; ")}` : ""}. Its keystroke-to-diagnostics latency: median ${fmt(f.lspKeystrokes.medianMs, 1)} ms, p95 ${fmt(f.lspKeystrokes.p95Ms, 1)} ms over ${f.lspKeystrokes.keystrokes} edits.`,
    "",
    `Render, ${f.render.directives} directives (example project and corpus), mean µs per render and compiled ÷ engine (geometric mean):`,
    "",
    "| engine | µs/render | compiled ÷ engine |",
    "|---|---|---|",
    ...Object.entries(rs).map(([e, v]) => `| ${e} | ${fmt(v.usPerRender, 2)} | ${fmt(v.compiledOverThis, 3)} |`),
    "",
    `Cold builds of the generated ${big}, in-process (ms): ${cold.builds.map((b) => fmt(b.ms)).join(", ")}; CPU ms, all threads: ${cold.builds.map((b) => fmt(b.cpuMs)).join(", ")}; the I/O floor beside each: ${cold.floors.map((x) => fmt(x.ms)).join(", ")}; peak RSS ${fmt(cold.peakRssMb)} MB. Generated 1k: ${fmt(f.cold1000.ms)} ms, ${f.cold1000.written} files.`,
    ...fastPathLines(f.fastPaths),
    `Phases of a non-incremental build of the generated 1k (ms): ${Object.entries(f.phases1000).map(([k, v]) => `${k} ${fmt(v)}`).join(", ")}.`,
    `Loading the generated 1k's registry in a fresh process: ${sideText(loader.a)} under \`--import rye-build/register\` (every byte verified first), ${sideText(loader.b)} without; ratio ${ratioText(loader.ratio)}${loader.ok ? "" : " (a run failed)"}.`,
    `\`rye test\` of the generated 1k (${f.ryeTest.cases} cases, one per directive, against the sources compiled in memory), a whole process: ${sideText(f.ryeTest.a)}, ${ratioText(f.ryeTest.ratio)} node -e 0${f.ryeTest.ok ? "" : " (the run failed)"}.`,
    `Output of the generated 1k by kind (bytes, runtime/ excluded): ${Object.entries(f.output1000.byKind).map(([k, v]) => `${k} ${v}`).join(", ")}; sources ${f.output1000.sourceBytes}.`,
    `tsc --noEmit (median of 3, taking turns): ${fmt(f.tsc.withoutMs)} ms without the modules, ${fmt(f.tsc.withMs)} ms importing the 1k registry.`,
  ].join("\n");
}

/** The hand-written readers against their grammars: what each saves, as a share of the 1k build. */
function fastPathLines(fp) {
  return [
    "",
    `Hand-written readers against their Peggy grammars, over the generated 1k (${fp.texts} directives, ${fp.xmls} XML blocks), in turns; saved = grammar − fast, as a share of that build's ${fmt(fp.buildMs)} ms:`,
    "",
    "| reader | grammar | fast path | grammar ÷ fast | saved | share of the build |",
    "|---|---|---|---|---|---|",
    ...Object.entries(fp.rows).map(([name, r]) => `| ${name} | ${sideText(r.grammar)} | ${sideText(r.fast)} | ${ratioText(r.ratio)} | ${fmt(r.savedMs, 1)} ms | ${fmt(100 * r.shareOfBuild, 1)} % |`),
    "",
  ];
}
