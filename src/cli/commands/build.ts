import { relative, resolve } from "node:path";
import { build, VERSION } from "../../index.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { formatDiagnostic, formatGithubAnnotation, formatSummary } from "../../diagnostics/format.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";
import { useColor } from "../io.js";
import { readSpaces, spacesFrom } from "../read-spaces.js";
import { runtimeFiles } from "../runtime-files.js";
import { commitOutput } from "../write-output.js";
import { UNSIGNED_WARNING, signBuild } from "../signing.js";
import { checkOutput, type OutputDrift } from "../check-output.js";

const USAGE = `Usage: rye build [--project DIR] [--out DIR] [--json] [--check] [--allow-unsigned] [--user-space DIR] [--system DIR]…

Compiles every directive and knowledge item under DIR/.ai (default: the current directory) into
typed ES modules under --out (default: DIR/out). Parents and knowledge are resolved project →
user (--user-space, $USER_SPACE or home) → system (--system, repeatable). Exit code 1 on any error.
--check writes nothing and exits 1 when out/ differs from what a build would write. Output is
signed with this machine's key (generated on first use); --allow-unsigned skips that, loudly.`;

/** `rye build`: read the project, compile, print diagnostics, write `out/`. */
export async function run(args: string[], io: Io): Promise<number> {
  const values = parseCommandArgs(
    args,
    {
      project: { type: "string" },
      out: { type: "string" },
      json: { type: "boolean" },
      "user-space": { type: "string" },
      system: { type: "string", multiple: true },
      check: { type: "boolean" },
      "allow-unsigned": { type: "boolean" },
    },
    USAGE,
    io,
  );
  if (typeof values === "number") return values;
  const project = resolve(io.cwd, values.project ?? ".");
  const outDir = resolve(project, values.out ?? "out");
  const started = performance.now();
  const { sources, diagnostics: readProblems, hookConfig } = readSpaces(spacesFrom(project, values, io.cwd, io.env));
  const result = build(sources, VERSION, { hookConfig });
  const diagnostics = [...readProblems, ...result.diagnostics];
  const unsigned = new Map([...result.files, ...runtimeFiles()]);
  if (values["allow-unsigned"]) io.stderr.write(UNSIGNED_WARNING);
  const files = values["allow-unsigned"] ? unsigned : signBuild(unsigned, sources, io);
  if (values.check) return reportDrift(checkOutput(outDir, files), relative(io.cwd, outDir) || ".", io);
  const { written } = commitOutput(outDir, files, diagnostics);
  const ms = Math.round(performance.now() - started);
  const display = (source: string) => relative(io.cwd, resolve(project, source)) || source;

  if (values.json) {
    const report = { outDir: relative(io.cwd, outDir) || ".", compiled: result.compiled, diagnostics: diagnostics.map((d) => withDisplay(d, display)) };
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const sourcesByPath = new Map(sources.map((s) => [s.path, s.text.replace(/\r\n?/g, "\n")]));
    const color = useColor(io);
    for (const d of diagnostics) io.stderr.write(`${formatDiagnostic(d, { color, sources: sourcesByPath, displayPath: display })}\n`);
    if (io.env.GITHUB_ACTIONS === "true") for (const d of diagnostics) io.stdout.write(`${formatGithubAnnotation(d, display)}\n`);
    const summary = formatSummary(diagnostics);
    if (summary) io.stderr.write(`${summary}\n`);
    io.stdout.write(
      `Compiled ${result.compiled.length} of ${sources.filter((s) => s.kind === "directive" && s.space === "project").length} directives to ${relative(io.cwd, outDir) || "."} in ${ms} ms (${written} files written).\n`,
    );
  }
  return diagnostics.some((d) => d.severity === "error") ? 1 : 0;
}

/** `--check`: list what a build would change in out/, and fail if anything would. */
function reportDrift(drift: OutputDrift, outName: string, io: Io): number {
  const lines = [
    ...drift.missing.map((f) => `missing  ${outName}/${f}`),
    ...drift.stale.map((f) => `stale    ${outName}/${f}`),
    ...drift.extra.map((f) => `extra    ${outName}/${f}`),
  ];
  if (lines.length === 0) {
    io.stdout.write(`${outName} is up to date.\n`);
    return 0;
  }
  io.stderr.write(`${lines.join("\n")}\n${outName} is out of date (${lines.length} files): run rye build.\n`);
  return 1;
}

function withDisplay(d: Diagnostic, display: (s: string) => string): Diagnostic {
  return d.loc ? { ...d, loc: { ...d.loc, source: display(d.loc.source) } } : d;
}

