import { readFileSync } from "node:fs";
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
import { locateProject } from "../../builder/load-project.js";
import { holdsProject } from "../../project/find-project.js";
import { resolveSettings } from "../../project/settings.js";

const USAGE = `Usage: rye build [--project DIR] [--out DIR] [--json] [--check] [--watch] [--verbose] [--allow-unsigned] [--emit-ts] [--verify-sources] [--user-space DIR] [--system DIR]…

Compiles every directive and knowledge item under DIR/.ai (default: the nearest folder at or above
the current directory holding .ai/; a missing DIR or one without .ai/ is a usage error) into
typed ES modules under --out (default: DIR/out). Parents and knowledge are resolved project →
user (--user-space, $USER_SPACE or home) → system (--system, repeatable). Exit code 1 on any error.
--check writes nothing and exits 1 when out/ differs from what a build would write. Output is
signed with this machine's key (generated on first use); --allow-unsigned skips that, loudly.
--emit-ts also writes each module's TypeScript source under out/ts/ (signed like the rest).
A signed source that changed since signing is a warning (RYE5001); --verify-sources requires every
project item to carry a valid signature by a trusted key (RYE5001-RYE5004 as errors).
Unchanged items are reused from DIR/.rye-cache/ (safe to delete). --watch rebuilds on every change
and prints a timestamped line per rebuild (with --json: one JSON object per line); not with --check.
The output folder changes all at once; a build replaces or deletes only files it recorded in
out/rye-files.json, and refuses (RYE8005) a folder holding anything else, naming it.
Settings may also come from DIR/rye.config.json (or "rye" in DIR/package.json); flags win.
Info diagnostics are printed with --verbose only.`;

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
      "emit-ts": { type: "boolean" },
      "verify-sources": { type: "boolean" },
      watch: { type: "boolean" },
      verbose: { type: "boolean" },
    },
    USAGE,
    io,
  );
  if (typeof values === "number") return values;
  if (values.check && values.watch) return usageError("--check and --watch cannot be combined: --check compares once and exits", io);
  const found = locateProject({ project: values.project, userSpace: values["user-space"], cwd: io.cwd, env: io.env });
  if ("problem" in found) return usageError(found.problem, io);
  const project = found.root;
  const settings = resolveSettings(project, values, io.cwd, io.env);
  if (settings.problems.length > 0 && reportConfigProblems(settings.problems, project, io)) return 1;
  io = { ...io, env: settings.env };
  const outDir = settings.out;
  const spaces = spacesFrom(project, { "user-space": settings.userSpace, system: settings.systems }, io.cwd, io.env);
  const allowUnsigned = settings.allowUnsigned;
  if (allowUnsigned) io.stderr.write(UNSIGNED_WARNING);
  if (values.check) {
    // From scratch, without the cache, signed with a key that lives only in memory: --check touches nothing.
    const { sources, hookConfig } = readSpaces(spaces);
    const result = build(sources, VERSION, { hookConfig, emitTs: values["emit-ts"] });
    const unsigned = new Map([...result.files, ...runtimeFiles()]);
    const files = allowUnsigned ? unsigned : signBuild(unsigned, sources, io, throwawayKey());
    return reportDrift(checkOutput(outDir, files, unsignedView), relative(io.cwd, outDir) || ".", io);
  }
  const roots = [{ root: spaces.project, label: "project" }, { root: spaces.user, label: "user" }, ...spaces.systems.map((root) => ({ root, label: "system" }))];
  const sourceTrust = settings.verifySources ? trustForSpaces(roots, io.env) : null;
  const options = { project, outDir, spaces, allowUnsigned, emitTs: values["emit-ts"], sourceTrust };
  const verbose = settings.verbose;
  if (values.watch) return watchBuild(options, io, (o) => (holdsProject(o.project) ? runOnce(o, io, Boolean(values.json), true, verbose) : reportNoProject(o, io, Boolean(values.json))));
  return runOnce(options, io, Boolean(values.json), false, verbose);
}

/** Prints the config file's problems; true when one is an error (the build then does not start). */
function reportConfigProblems(problems: readonly Diagnostic[], project: string, io: Io): boolean {
  const sources = new Map(problems.map((d) => d.loc!.source).map((f) => [f, readFileSync(resolve(project, f), "utf8")]));
  const display = (source: string) => relative(io.cwd, resolve(project, source)) || source;
  for (const d of problems) io.stderr.write(`${formatDiagnostic(d, { color: useColor(io), sources, displayPath: display })}\n`);
  return problems.some((d) => d.severity === "error");
}

function usageError(message: string, io: Io): number {
  io.stderr.write(`rye build: ${message}\n`);
  return 2;
}

/** The local time of day a watch cycle ended, as tsc --watch prints it. */
const clock = (now: Date) => `[${now.toTimeString().slice(0, 8)}]`;

/** A watch cycle that finds the project's .ai/ gone builds nothing (out/ stays) and waits for it to return. */
function reportNoProject(options: ProjectBuildOptions, io: Io, json: boolean): number {
  const now = new Date();
  const message = `${options.project} holds no .ai/ folder any more; nothing was built, waiting for it to return`;
  if (json) io.stdout.write(`${JSON.stringify({ time: now.toISOString(), version: VERSION, error: message, errors: 1, warnings: 0 })}\n`);
  else io.stdout.write(`${clock(now)} ${message}.\n`);
  return 2;
}

/**
 * One build with its report; the exit code of `rye build`. In a watch cycle (`watching`) the
 * summary line starts with the time, and --json prints the report as one line with the time.
 */
export function runOnce(options: ProjectBuildOptions, io: Io, json: boolean, watching = false, verbose = false): number {
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

  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  const now = new Date();
  if (json) {
    const report = {
      ...(watching ? { time: now.toISOString() } : {}),
      version: VERSION,
      outDir: relative(io.cwd, outDir) || ".",
      errors,
      warnings,
      directives: built.directives,
      compiled,
      diagnostics: diagnostics.map((d) => withDisplay(d, display)),
    };
    io.stdout.write(`${watching ? JSON.stringify(report) : JSON.stringify(report, null, 2)}\n`);
  } else {
    const stamp = watching ? `${clock(now)} ` : "";
    // Only the files diagnostics point into are needed for code frames.
    const cited = new Set(diagnostics.map((d) => d.loc?.source));
    const sourcesByPath = new Map(sources.filter((s) => cited.has(s.path)).map((s) => [s.path, s.text.replace(/\r\n?/g, "\n")]));
    const color = useColor(io);
    // Info diagnostics (supported extensions and the like) are printed with --verbose only; --json has them all.
    const shown = verbose ? diagnostics : diagnostics.filter((d) => d.severity !== "info");
    // One write for the whole report: a no-op build repeats hundreds of stored warnings.
    const report = shown.map((d) => `${formatDiagnostic(d, { color, sources: sourcesByPath, displayPath: display })}\n`);
    const summary = formatSummary(shown);
    if (summary) report.push(`${summary}\n`);
    if (report.length > 0) io.stderr.write(report.join(""));
    if (io.env.GITHUB_ACTIONS === "true" && shown.length > 0) io.stdout.write(shown.map((d) => `${formatGithubAnnotation(d, display)}\n`).join(""));
    const outName = relative(io.cwd, outDir) || ".";
    if (built.refused) io.stderr.write(`${stamp}--verify-sources failed: nothing was written to ${outName}.\n`);
    else if (errors > 0) {
      io.stdout.write(`${stamp}${compiled.length} of ${built.directives} directives compiled without errors; ${outName} was left unchanged (a build with errors writes nothing).\n`);
    } else io.stdout.write(
      `${stamp}Compiled ${compiled.length} of ${built.directives} directives to ${relative(io.cwd, outDir) || "."} in ${ms} ms (${built.written} files written).\n`,
    );
  }
  return errors > 0 ? 1 : 0;
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

