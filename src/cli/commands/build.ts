import { relative, resolve } from "node:path";
import { build } from "../../compile/build.js";
import { VERSION } from "../../version.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { formatDiagnostic, formatGithubAnnotation, formatSummary } from "../../diagnostics/format.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";
import { useColor } from "../io.js";
import { readSpaces, spacesFrom } from "../../project/read-spaces.js";
import { runtimeFiles } from "../../output/runtime-files.js";
import { buildProject, type ProjectBuildOptions, type ProjectBuildResult } from "../../builder/build-project.js";
import { Progress } from "../io.js";
import { watchBuild } from "../../watch/watch.js";
import { UNSIGNED_WARNING, signBuild, throwawayKey, trustForSpaces, unsignedView } from "../../builder/signing.js";
import { checkOutput, type OutputDrift } from "../../output/check-output.js";

const USAGE = `Usage: rye build [--project DIR] [--out DIR] [--json] [--check] [--watch] [--allow-unsigned] [--verify-sources] [--user-space DIR] [--system DIR]…

Compiles every directive and knowledge item under DIR/.ai (default: the current directory) into
typed ES modules under --out (default: DIR/out). Parents and knowledge are resolved project →
user (--user-space, $USER_SPACE or home) → system (--system, repeatable). Exit code 1 on any error.
--check writes nothing and exits 1 when out/ differs from what a build would write. Output is
signed with this machine's key (generated on first use); --allow-unsigned skips that, loudly.
A signed source that changed since signing is a warning (RYE5001); --verify-sources requires every
project item to carry a valid signature by a trusted key (RYE5001-RYE5004 as errors).
Unchanged items are reused from DIR/.rye-cache/ (safe to delete). --watch rebuilds on every change.
The output folder changes all at once; a build replaces or deletes only files it recorded in
out/rye-files.json, and refuses (RYE8005) a folder holding anything else, naming it.`;

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
      "verify-sources": { type: "boolean" },
      watch: { type: "boolean" },
    },
    USAGE,
    io,
  );
  if (typeof values === "number") return values;
  const project = resolve(io.cwd, values.project ?? ".");
  const outDir = resolve(project, values.out ?? "out");
  const spaces = spacesFrom(project, values, io.cwd, io.env);
  if (values["allow-unsigned"]) io.stderr.write(UNSIGNED_WARNING);
  if (values.check) {
    // From scratch, without the cache, signed with a key that lives only in memory: --check touches nothing.
    const { sources, hookConfig } = readSpaces(spaces);
    const result = build(sources, VERSION, { hookConfig });
    const unsigned = new Map([...result.files, ...runtimeFiles()]);
    const files = values["allow-unsigned"] ? unsigned : signBuild(unsigned, sources, io, throwawayKey());
    return reportDrift(checkOutput(outDir, files, unsignedView), relative(io.cwd, outDir) || ".", io);
  }
  const roots = [{ root: spaces.project, label: "project" }, { root: spaces.user, label: "user" }, ...spaces.systems.map((root) => ({ root, label: "system" }))];
  const sourceTrust = values["verify-sources"] ? trustForSpaces(roots, io.env) : null;
  const options = { project, outDir, spaces, allowUnsigned: values["allow-unsigned"], sourceTrust };
  if (values.watch) return watchBuild(options, io, (o) => runOnce(o, io, Boolean(values.json)));
  return runOnce(options, io, Boolean(values.json));
}

/** One build with its report; the exit code of `rye build`. */
export function runOnce(options: ProjectBuildOptions, io: Io, json: boolean): number {
  const started = performance.now();
  const progress = json ? null : new Progress(io, started);
  let built: ProjectBuildResult;
  try {
    built = buildProject({ ...options, onProgress: progress ? (done, total) => progress.update(done, total) : undefined }, io);
  } finally {
    progress?.clear();
  }
  const { sources, diagnostics, compiled } = built;
  const ms = Math.round(performance.now() - started);
  const { project, outDir } = options;
  const display = (source: string) => relative(io.cwd, resolve(project, source)) || source;

  if (json) {
    const report = { outDir: relative(io.cwd, outDir) || ".", compiled, diagnostics: diagnostics.map((d) => withDisplay(d, display)) };
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    // Only the files diagnostics point into are needed for code frames.
    const cited = new Set(diagnostics.map((d) => d.loc?.source));
    const sourcesByPath = new Map(sources.filter((s) => cited.has(s.path)).map((s) => [s.path, s.text.replace(/\r\n?/g, "\n")]));
    const color = useColor(io);
    for (const d of diagnostics) io.stderr.write(`${formatDiagnostic(d, { color, sources: sourcesByPath, displayPath: display })}\n`);
    if (io.env.GITHUB_ACTIONS === "true") for (const d of diagnostics) io.stdout.write(`${formatGithubAnnotation(d, display)}\n`);
    const summary = formatSummary(diagnostics);
    if (summary) io.stderr.write(`${summary}\n`);
    const outName = relative(io.cwd, outDir) || ".";
    if (built.refused) io.stderr.write(`--verify-sources failed: nothing was written to ${outName}.\n`);
    else if (diagnostics.some((d) => d.severity === "error")) {
      io.stdout.write(`${compiled.length} of ${built.directives} directives compiled without errors; ${outName} was left unchanged (a build with errors writes nothing).\n`);
    } else io.stdout.write(
      `Compiled ${compiled.length} of ${built.directives} directives to ${relative(io.cwd, outDir) || "."} in ${ms} ms (${built.written} files written).\n`,
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

