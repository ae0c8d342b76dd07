import { relative, resolve } from "node:path";
import { VERSION } from "../../version.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { formatDiagnostic } from "../../diagnostics/format.js";
import { parseCommandArgs } from "../args.js";
import type { Io } from "../io.js";
import { useColor } from "../io.js";
import { tuneForLongRun } from "../v8-budget.js";
import { spacesFrom, type Spaces } from "../../project/read-spaces.js";
import type { ProjectBuildOptions } from "../../builder/build-project.js";
import type { OutputDrift } from "../../output/check-output.js";
import { locateProject } from "../../builder/load-project.js";
import { holdsProject } from "../../project/find-project.js";
import { resolveSettings } from "../../project/settings.js";
import { readConfigText } from "../../project/read-config.js";
import { upToDate } from "../../cache/up-to-date.js";
import { machineKeyRefusal } from "../../sign/machine-key-state.js";
import { clock, reportBuild } from "./build-report.js";

// Only what every build needs is imported above: when the up-to-date stamp answers, the report is
// printed without loading the compiler, the signer or yaml (test/cli/lazy-modules.test.ts). The rest
// is imported where it is used.

const USAGE = `Usage: rye build [--project DIR] [--out DIR] [--json] [--check] [--watch] [--verbose] [--allow-unsigned] [--emit-ts] [--verify-sources] [--jobs N] [--user-space DIR] [--system DIR]…

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
--jobs N compiles on N threads (default: RYE_JOBS, else one per core; 1: no worker threads); builds
with few items to compile stay on one thread, and the output is the same byte for byte.
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
      jobs: { type: "string" },
    },
    USAGE,
    io,
  );
  if (typeof values === "number") return values;
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1)) return usageError(`--jobs takes a whole number of threads, 1 or more (got '${values.jobs}')`, io);
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
  if (allowUnsigned) io.stderr.write((await import("../../builder/signing.js")).UNSIGNED_WARNING);
  const json = Boolean(values.json);
  const verbose = settings.verbose;
  // Output signed with a key its owner revoked or let expire is refused by every verifier.
  const keyRefused = allowUnsigned || values.check ? null : await machineKeyRefusal(io.env, io.cwd);
  if (keyRefused) {
    io.stderr.write(`rye build: this machine's signing key cannot sign: ${keyRefused}\n`);
    return 1;
  }
  const roots = [{ root: spaces.project, label: "project" }, { root: spaces.user, label: "user" }, ...spaces.systems.map((root) => ({ root, label: "system" }))];
  const emitTs = values["emit-ts"];
  if (values.check) {
    // The stamp answers --check as it answers a no-op build: the last build of exactly these inputs
    // passed the whole check and wrote out/ as its stat still shows. Without one (a fresh machine,
    // CI), the whole check runs.
    const hit = settings.verifySources ? null : upToDate({ project, outDir, spaces, allowUnsigned, emitTs, env: io.env });
    if (hit) return (await import("./check-report.js")).reportCheck({ ...hit, drift: { missing: [], stale: [], extra: [] } }, { project, outName: relative(io.cwd, outDir) || ".", json, verbose }, io);
    tuneForLongRun();
    const sourceTrust = settings.verifySources ? (await import("../../builder/signing.js")).trustForSpaces(roots, io.env) : null;
    return checkOnly(spaces, outDir, { allowUnsigned, emitTs, json, verbose, sourceTrust }, io);
  }
  if (!values.watch && !settings.verifySources) {
    // What buildProject asks first, asked before loading it: on a miss the build does not ask again.
    const started = performance.now();
    const hit = upToDate({ project, outDir, spaces, allowUnsigned, emitTs, env: io.env }, true);
    if (hit) return reportBuild({ ...hit, written: 0 }, { project, outDir, json, watching: false, verbose, ms: performance.now() - started }, io);
  }
  tuneForLongRun();
  const { runOnce } = await import("./build-once.js");
  const sourceTrust = settings.verifySources ? (await import("../../builder/signing.js")).trustForSpaces(roots, io.env) : null;
  const options = { project, outDir, spaces, allowUnsigned, emitTs, sourceTrust, jobs };
  if (values.watch) {
    const { watchBuild } = await import("../../watch/watch.js");
    return watchBuild(options, io, (o) => (holdsProject(o.project) ? runOnce(o, io, json, true, verbose) : reportNoProject(o, io, json)));
  }
  return runOnce(options, io, json, false, verbose);
}

/**
 * `--check`: the whole check a build runs (reading, compiling, source signatures), from scratch and
 * without the cache, then, only on a tree without errors, a comparison of out/ with what a build
 * would write (signed with a key that lives only in memory). Touches nothing.
 */
async function checkOnly(spaces: Spaces, outDir: string, options: CheckOptions, io: Io): Promise<number> {
  const [{ readSpaces }, { build }, { declarationMapFor }, { runtimeFiles }, { signBuild, throwawayKey, unsignedView }, { checkOutput }, { checkSourceSignatures }, { sortDiagnostics }, { buildInfoOf }, { Fingerprints }] = await Promise.all([
    import("../../project/read-spaces.js"),
    import("../../compile/build.js"),
    import("../../emit/declaration-map.js"),
    import("../../output/runtime-files.js"),
    import("../../builder/signing.js"),
    import("../../output/check-output.js"),
    import("../../sign/check-sources.js"),
    import("../../diagnostics/diagnostic.js"),
    import("../../builder/write-manifest.js"),
    import("../../cache/build-cache.js"),
  ]);
  const { sources, hookConfig, diagnostics: readProblems } = readSpaces(spaces);
  const result = build(sources, VERSION, { hookConfig, emitTs: options.emitTs, declarationMap: declarationMapFor(spaces.project, outDir) });
  const signatures = checkSourceSignatures(sources, options.sourceTrust ?? null);
  const diagnostics = sortDiagnostics([...readProblems, ...signatures, ...result.diagnostics]);
  const outName = relative(io.cwd, outDir) || ".";
  const failed = diagnostics.some((d) => d.severity === "error");
  let drift: OutputDrift | null = null;
  if (!failed) {
    const unsigned = new Map([...result.files, ...runtimeFiles()]);
    // The signed build metadata (the source list and counter) a build would write, from the same hashes.
    const hashes = new Fingerprints(sources);
    const meta = buildInfoOf(sources, hookConfig, spaces, (s) => hashes.hashOf(s), io.env, { outDir, emitTs: options.emitTs });
    const files = options.allowUnsigned ? unsigned : signBuild(unsigned, sources, io, throwawayKey(), meta);
    drift = checkOutput(outDir, files, unsignedView);
  }
  const { reportCheck } = await import("./check-report.js");
  return reportCheck({ sources, diagnostics, drift, compiled: result.compiled }, { project: spaces.project, outName, json: options.json, verbose: options.verbose }, io);
}

interface CheckOptions {
  allowUnsigned: boolean;
  emitTs: boolean | undefined;
  json: boolean;
  verbose: boolean;
  sourceTrust: import("../../sign/trust-store.js").TrustStore | null;
}

/** Prints the config file's problems; true when one is an error (the build then does not start). */
function reportConfigProblems(problems: readonly Diagnostic[], project: string, io: Io): boolean {
  // Read again for the code frames, as bounded regular files: the checkout may have made it a FIFO.
  const sources = new Map(problems.map((d) => d.loc!.source).map((f) => [f, readConfigText(resolve(project, f), f)]).filter((e): e is [string, string] => typeof e[1] === "string"));
  const display = (source: string) => relative(io.cwd, resolve(project, source)) || source;
  for (const d of problems) io.stderr.write(`${formatDiagnostic(d, { color: useColor(io), sources, displayPath: display })}\n`);
  return problems.some((d) => d.severity === "error");
}

function usageError(message: string, io: Io): number {
  io.stderr.write(`rye build: ${message}\n`);
  return 2;
}

/** A watch cycle that finds the project's .ai/ gone builds nothing (out/ stays) and waits for it to return. */
function reportNoProject(options: ProjectBuildOptions, io: Io, json: boolean): number {
  const now = new Date();
  const message = `${options.project} holds no .ai/ folder any more; nothing was built, waiting for it to return`;
  if (json) io.stdout.write(`${JSON.stringify({ time: now.toISOString(), version: VERSION, error: message, errors: 1, warnings: 0 })}\n`);
  else io.stdout.write(`${clock(now)} ${message}.\n`);
  return 2;
}
