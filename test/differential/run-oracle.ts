// Runs the original's own parser, validator and interpolator (../shared/oracle/rye_oracle.py) over a
// batch of jobs in one python3 process. Values come back tagged with their Python type, so an int,
// a float and a bool stay apart and dict order is kept, without this side's Python-value code.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { SHARED_DIR } from "../helpers/shared.js";

export const ORACLE = resolve(SHARED_DIR, "oracle", "rye_oracle.py");

/** Why the differential test cannot run here, or undefined when it can. */
export function oracleUnavailable(): string | undefined {
  if (!existsSync(ORACLE)) return `the original's oracle is not at ${ORACLE} (../shared absent): differential test skipped`;
  const probe = spawnSync("python3", ["--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) return "python3 not found on PATH (or it does not run): differential test against the original skipped";
  return undefined;
}

export interface OracleJob {
  id: number;
  /** The file's text after Python's universal-newline read (what `Path.read_text` gives the original). */
  text: string;
  /** Parameters as JSON text, parsed by Python's json module. */
  params: string;
  env: Record<string, string>;
}

/** A Python value with its type: ["int", "12"], ["float", 1.5] (repr text when not finite), ["str", "x"], ["bool", true], ["none"], ["list", [...]], ["dict", [[k, v], ...]]. */
export type Tagged = [string, ...unknown[]];

export interface OracleResult {
  id: number;
  parse_error?: string;
  union_mode?: boolean;
  oracle_exception?: string;
  validate?: { status: string; error?: string; inputs?: Tagged; declared_inputs: Tagged };
  render?: { body: string; content: string; raw: string; actions: Tagged; prompt: string } | null;
}

// Imports rye_oracle.py as a module, runs each job through its `run`, and tags the values.
const WRAPPER = String.raw`
import importlib.util, json, math, sys
spec = importlib.util.spec_from_file_location("rye_oracle", sys.argv[1])
oracle = importlib.util.module_from_spec(spec); spec.loader.exec_module(oracle)

def tag(v):
    if v is None: return ["none"]
    if isinstance(v, bool): return ["bool", v]
    if isinstance(v, int): return ["int", str(v)]
    if isinstance(v, float): return ["float", v if math.isfinite(v) else repr(v)]
    if isinstance(v, str): return ["str", v]
    if isinstance(v, list): return ["list", [tag(x) for x in v]]
    if isinstance(v, dict): return ["dict", [[k, tag(x)] for k, x in v.items()]]
    return ["other", repr(v)]

for line in sys.stdin:
    job = json.loads(line)
    try:
        out = oracle.run(job["text"], job["params"], job["env"])
        val = out.get("validate")
        if val is not None:
            if "inputs" in val: val["inputs"] = tag(val["inputs"])
            val["declared_inputs"] = tag(val["declared_inputs"])
        if out.get("render"): out["render"]["actions"] = tag(out["render"]["actions"])
    except Exception as e:
        out = {"oracle_exception": repr(e)}
    out["id"] = job["id"]
    sys.stdout.write(json.dumps(out, ensure_ascii=True, allow_nan=True) + "\n")
`;

/** All jobs through one python3 process; results in job order. */
export function runOracle(jobs: readonly OracleJob[]): OracleResult[] {
  const input = jobs.map((j) => JSON.stringify(j)).join("\n") + "\n";
  const r = spawnSync("python3", ["-c", WRAPPER, ORACLE], { input, encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.error || r.status !== 0) throw new Error(`oracle failed (status ${r.status}): ${r.error?.message ?? ""}\n${r.stderr}`);
  const byId = new Map<number, OracleResult>();
  for (const line of r.stdout.split("\n")) if (line.trim()) {
    const res = JSON.parse(line) as OracleResult;
    byId.set(res.id, res);
  }
  return jobs.map((j) => {
    const res = byId.get(j.id);
    if (!res) throw new Error(`oracle gave no result for job ${j.id}`);
    return res;
  });
}
