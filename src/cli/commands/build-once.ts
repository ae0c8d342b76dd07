// One run of the build engine with its report: what `rye build` does when the up-to-date stamp
// does not answer, and what every --watch cycle does. Loaded only then (see build.ts).
import { buildProject, type ProjectBuildOptions, type ProjectBuildResult } from "../../builder/build-project.js";
import type { Io } from "../io.js";
import { Progress } from "../io.js";
import { reportBuild } from "./build-report.js";

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
  const ms = performance.now() - started;
  return reportBuild(built, { project: options.project, outDir: options.outDir, json, watching, verbose, ms }, io);
}
