/**
 * Freshness checks on verified output (decisions.md #26). A signature says who built the output,
 * not when or from what: an older, complete, validly signed out/ restored over a newer one verifies.
 * These checks read the build metadata the signature covers (root manifest `build` and
 * `generated_at`, or a bundle's metadata line) and refuse output that is
 *   - older than a pinned point (`notBefore`: an ISO time against `generated_at`, or a whole number
 *     against `build.counter`), or
 *   - not what the compiler installed now would build from the project now (`current`): the source
 *     list is recomputed from the spaces and compared with the one the root binds, naming what
 *     changed, and the compiler's identity and the output options the root binds are compared with
 *     this compiler's and with those of the output folder's place (compiler-identity.ts). Output
 *     whose metadata names no compiler (format 3) is refused: what made it cannot be told.
 * They run only when asked: plain verification reads nothing outside the checked output.
 */
import { resolve } from "node:path";
import { compilerDifferences, compilerIdentity, optionDifferences, outputOptions, type CompilerIdentity, type OutputOptions } from "../sign/compiler-identity.js";
import { sha256Hex } from "../sign/hash-region.js";
import { isoSeconds, timeOf } from "../sign/key-lifecycle.js";
import { describeSourceChanges, sourceEntries, sourceListText } from "../sign/source-tree.js";

/** Which sources `current` recomputes: the spaces of the build (default: the output folder's parent, USER_SPACE or home). */
export interface CurrentSources {
  project?: string;
  userSpace?: string;
  systems?: readonly string[];
  /** Whether a build now would pass --emit-ts (default: no, as `rye build` without it). */
  emitTs?: boolean;
}

/** The freshness options of `verify()` (and `rye verify --current`, `--not-before`). */
export interface FreshnessOptions {
  /** Refuse output built before this point: an ISO time (against the build time) or a build counter (a whole number). */
  notBefore?: string | number;
  /** Refuse output not built from the sources the project holds now. */
  current?: boolean | CurrentSources;
}

/** What the signed metadata says of one build. */
export interface BuildStamp {
  time: string;
  counter: number;
  sources: string;
  /** The signed source list, when the output carries one (a bundle carries only its sha256). */
  list?: string;
  /** The compiler that made it, when the metadata names one (format 4). */
  compiler?: CompilerIdentity;
  /** The options it was built with (an output folder of format 4; a bundle holds no file they decide). */
  options?: OutputOptions;
}

/** What a build of the project now would sign besides its sources: this compiler, and (for an output folder) the options. */
export interface BuildIdentity {
  compiler: CompilerIdentity;
  options: OutputOptions | null;
}

/** A pinned point: a counter, or a time in ms; an error message when it is neither. */
export function parseNotBefore(value: string | number): { counter: number } | { time: number } | string {
  if (typeof value === "number" || /^\s*\d+\s*$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) && n >= 0 ? { counter: n } : `--not-before ${value} is not a whole number`;
  }
  const ms = timeOf(value.trim());
  return Number.isNaN(ms) ? `--not-before ${JSON.stringify(value)} is neither an ISO time (2026-05-01T12:00:00Z) nor a build counter` : { time: ms };
}

/** Why `stamp` is older than `notBefore`, or null. */
export function notBeforeProblem(stamp: BuildStamp, notBefore: string | number, label: string): string | null {
  const pin = parseNotBefore(notBefore);
  if (typeof pin === "string") return pin;
  if ("counter" in pin) {
    if (stamp.counter >= pin.counter) return null;
    return `Older than the pinned point: ${label} was built with counter ${stamp.counter}, before --not-before ${pin.counter} (build counter, signed in its metadata)\n  Fix: rebuild with rye build (RYE_BUILD_COUNTER=${pin.counter} or later), or restore the newer output`;
  }
  if (timeOf(stamp.time) >= pin.time) return null;
  return `Older than the pinned point: ${label} was built at ${stamp.time}, before --not-before ${isoSeconds(pin.time)} (build time, signed in its metadata)\n  Fix: rebuild with rye build (SOURCE_DATE_EPOCH at or after that time), or restore the newer output`;
}

/** The source list of the spaces `current` names, as a build of them would sign it. */
export async function currentSourceList(current: CurrentSources, outputDir: string, env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  // Loaded only when asked: plain verification (the loader, the plugins) never reads the project.
  const { readSpaces, spacesFrom, spacesInOrder } = await import("../project/read-spaces.js");
  const { factsOf } = await import("../project/source-facts.js");
  const spaces = spacesFrom(projectOf(current, outputDir, cwd), { "user-space": current.userSpace, system: current.systems ? [...current.systems] : undefined }, cwd, env);
  const { sources, hookConfig } = readSpaces(spaces);
  return sourceListText(sourceEntries(sources, new Map(spacesInOrder(spaces)), (s) => factsOf(s)?.sha256 ?? sha256Hex(s.text), hookConfig));
}

/** The project `current` names: its `project`, or else the output folder's parent. */
function projectOf(current: CurrentSources, outputDir: string, cwd: string): string {
  return resolve(cwd, current.project ?? resolve(outputDir, ".."));
}

/** Why output with `stamp` was not built from the sources `now` lists, naming what changed; null when it was. */
export function currentProblem(stamp: BuildStamp, now: string, label: string, project: string): string | null {
  const nowHash = sha256Hex(now);
  if (nowHash === stamp.sources) return null;
  const changes = stamp.list === undefined ? [] : describeSourceChanges(stamp.list, now);
  const what = changes.length > 0 ? changes.map((c) => `\n  ${c}`).join("") : `\n  source tree sha256 ${stamp.sources} when built (${stamp.time}), ${nowHash} now`;
  return `Not built from the current sources of ${project}: ${label} is output of other (older or newer) sources:${what}\n  Fix: rebuild with rye build; without --current, rye verify accepts any complete output signed by a trusted key`;
}

/** What a build now of the project `current` names into `outputDir` would sign besides its sources; options only for an output folder. */
export function identityNow(current: CurrentSources, outputDir: string, cwd: string, kind: "output" | "bundle"): BuildIdentity {
  return { compiler: compilerIdentity(), options: kind === "bundle" ? null : outputOptions(projectOf(current, outputDir, cwd), outputDir, current.emitTs) };
}

/**
 * Why output with `stamp` is not what the compiler installed now, with the options a build now
 * would use, would make; null when it is. Metadata that names no compiler is refused.
 */
export function identityProblem(stamp: BuildStamp, now: BuildIdentity, label: string): string | null {
  if (stamp.compiler === undefined) {
    return `Not known to be built by the compiler installed now: ${label} is output of an older rye (manifest format 3) whose signed metadata does not name the compiler that made it\n  Fix: rebuild with rye build`;
  }
  const built = stamp.options;
  const differences = [...compilerDifferences(stamp.compiler, now.compiler), ...(now.options === null ? [] : built === undefined ? ["output options: not signed"] : optionDifferences(built, now.options))];
  if (differences.length === 0) return null;
  return `Not built by the compiler installed now with the options of a build now: ${label} differs in${differences.map((d) => `\n  ${d}`).join("")}\n  Fix: rebuild with rye build (with --emit-ts if it was built with it); without --current, rye verify accepts any complete output signed by a trusted key`;
}

/** Every freshness problem of one verified build (`kind`: an output folder, or a bundle, which carries no option-dependent file). */
export async function freshnessProblems(stamp: BuildStamp, options: FreshnessOptions, at: { label: string; outputDir: string; env: NodeJS.ProcessEnv; cwd: string; kind?: "output" | "bundle" }): Promise<string[]> {
  const problems: string[] = [];
  if (options.notBefore !== undefined) {
    const p = notBeforeProblem(stamp, options.notBefore, at.label);
    if (p) problems.push(p);
  }
  if (options.current) {
    // Stryker disable next-line ConditionalExpression: `current: true` read as its own fields is {} (each undefined).
    const current: CurrentSources = typeof options.current === "object" ? options.current : {};
    const now = await currentSourceList(current, at.outputDir, at.env, at.cwd);
    const p = currentProblem(stamp, now, at.label, projectOf(current, at.outputDir, at.cwd));
    if (p) problems.push(p);
    const q = identityProblem(stamp, identityNow(current, at.outputDir, at.cwd, at.kind ?? "output"), at.label);
    if (q) problems.push(q);
  }
  return problems;
}
