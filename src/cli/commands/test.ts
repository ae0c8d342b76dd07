import { statSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { loadProject, locateProject } from "../../builder/load-project.js";
import { resolveSettings } from "../../project/settings.js";
import { REPORTERS, runSession, type ReporterName, type SessionOptions } from "../../testing/test-session.js";
import { watchTests } from "../../testing/watch-tests.js";
import { caseNamePattern } from "../../testing/select.js";
import { describeEntry } from "../../project/read-regular.js";
import { parseCommandLine } from "../args.js";
import { useColor, type Io } from "../io.js";

const USAGE = `Usage: rye test [ids | kind:id | folder/ | globs…] [-t NAME] [--out DIR | --bundle FILE --trusted-key FILE…]
                [--reporter human|json|junit|tap] [--output-file FILE] [--json] [--update] [--ci] [--run]
                [--now ISO] [--coverage] [--watch] [--pass-with-no-tests] [--project DIR] [--user-space DIR] [--system DIR]…

Runs the prompt tests of .ai/tests/ (directives/<id>.test.yaml, tools/<id>.test.yaml,
knowledge/<id>.test.yaml; see docs/testing.md). The test files are checked first, as sources are:
an input the item does not declare, a required input left out, an expectation that can never be
checked is an error and no case runs.

Against: the project's sources compiled in memory (default); built output through the verifying
loader (--out DIR); a bundle verified before anything of it runs (--bundle FILE, with trust anchors
from outside the checkout: --trusted-key, RYE_TRUSTED_KEYS, this machine's key).
-t NAME runs the cases whose name matches the regular expression NAME (matched in time linear in
the name: no backreferences or lookaround). --update rewrites snapshots
that differ; a missing snapshot is written unless --ci (or CI=true) is set; a link anywhere on a
snapshot's path is refused. --run runs tools for
real so their result can be checked. --now fixes the clock the report reads.
Exit codes: 0 every case passed, 1 a case failed or none ran, or the sources have errors (as rye
build), 2 usage or test file errors.`;

const OPTIONS = {
  t: { type: "string", short: "t" },
  out: { type: "string" },
  bundle: { type: "string" },
  "trusted-key": { type: "string", multiple: true },
  reporter: { type: "string" },
  "output-file": { type: "string" },
  json: { type: "boolean" },
  update: { type: "boolean", short: "u" },
  ci: { type: "boolean" },
  run: { type: "boolean" },
  now: { type: "string" },
  coverage: { type: "boolean" },
  watch: { type: "boolean" },
  "pass-with-no-tests": { type: "boolean" },
  project: { type: "string" },
  "user-space": { type: "string" },
  system: { type: "string", multiple: true },
  // Accepted so a script can pass rye build's flags: rye test writes no modules to sign.
  "allow-unsigned": { type: "boolean" },
} as const;

/** `rye test`: runs the prompt tests of `.ai/tests/`. */
export async function run(args: string[], io: Io): Promise<number> {
  const parsed = parseCommandLine(args, OPTIONS, USAGE, io);
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  const options = sessionOptions(values, positionals, io);
  if (typeof options === "number") return options;
  const sessionIo = { stdout: io.stdout, stderr: io.stderr, cwd: io.cwd, env: io.env, color: useColor(io) };
  if (values.watch) return watchTests(options, sessionIo);
  return runSession(options, sessionIo);
}

type Values = Exclude<ReturnType<typeof parseCommandLine<typeof OPTIONS>>, number>["values"];

function sessionOptions(values: Values, filters: string[], io: Io): SessionOptions | number {
  const fail = (message: string) => (io.stderr.write(`rye test: ${message}\n\n${USAGE}\n`), 2);
  const reporter = (values.json ? "json" : (values.reporter ?? "human")) as ReporterName;
  if (!REPORTERS.includes(reporter)) return fail(`unknown reporter '${reporter}' (${REPORTERS.join(", ")})`);
  if (values.out !== undefined && values.bundle !== undefined) return fail("--out and --bundle each choose what to test: give one");
  // A module of out/ loads once per process, so a rebuilt output would not be seen again.
  if (values.out !== undefined && values.watch) return fail("--watch runs from the sources or a bundle; with --out, rebuild and run again");
  const pattern = values.t === undefined ? null : caseNamePattern(values.t);
  if (pattern !== null && "problem" in pattern) return fail(pattern.problem);
  const now = values.now === undefined ? undefined : Date.parse(values.now);
  if (now !== undefined && Number.isNaN(now)) return fail(`--now ${values.now} is not a date (2026-01-01T00:00:00Z)`);
  const found = locateProject({ project: values.project, userSpace: values["user-space"], cwd: io.cwd, env: io.env });
  if ("problem" in found) return fail(found.problem);
  const settings = resolveSettings(found.root, { "user-space": values["user-space"], system: values.system }, io.cwd, io.env);
  const bundlePath = values.bundle === undefined ? undefined : resolve(io.cwd, values.bundle);
  const notBundle = bundlePath === undefined ? null : bundleProblem(bundlePath);
  if (notBundle !== null) return fail(notBundle);
  return {
    root: found.root,
    userSpace: settings.userSpace ?? resolve(io.cwd, io.env.USER_SPACE ?? homedir()),
    source: bundlePath !== undefined ? { kind: "bundle", path: bundlePath, label: values.bundle! } : values.out !== undefined ? { kind: "out", dir: resolve(found.root, values.out) } : { kind: "sources" },
    readProject: () => loadProject({ project: found.root, userSpace: settings.userSpace, systems: settings.systems, cwd: io.cwd, env: io.env }),
    trustedKeys: values["trusted-key"] ?? [],
    selection: { filters, pattern },
    reporter,
    outputFile: values["output-file"],
    update: values.update === true,
    ci: values.ci === true || (io.env.CI !== undefined && io.env.CI !== "" && io.env.CI !== "false"),
    runTools: values.run === true,
    now,
    coverage: values.coverage === true,
    passWithNoTests: values["pass-with-no-tests"] === true,
  };
}

/** Why `path` (named on the command line, so followed if a link) is no bundle file, or null. */
function bundleProblem(path: string): string | null {
  let st;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    return `--bundle ${path} cannot be read: ${(e as Error).message}`;
  }
  if (st === undefined) return `no bundle at ${path}: run rye bundle first`;
  return st.isFile() ? null : `--bundle ${path} is ${describeEntry(st)}, not a bundle file (rye bundle writes out/bundle.mjs)`;
}
