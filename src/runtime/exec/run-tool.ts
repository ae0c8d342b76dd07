import { createHash } from "node:crypto";
import { readRegularFile } from "../read-file.js";
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { executePlan, type ExecuteOptions } from "./execute-plan.js";
import type { ChainPlan, PlanFile } from "./plan.js";
import { toolErrorResponse } from "./tool-response.js";

/** A chain element's file as read just before a run. */
export interface ElementFile extends PlanFile {
  absolutePath: string;
  text: string;
}

/** Options of a compiled tool's `execute`; every field has a default. */
export interface RunToolOptions extends Partial<Omit<ExecuteOptions, "context">> {
  /** Overrides of the plan's path context. */
  context?: ExecuteOptions["context"];
  /** Checks one element's file before anything runs (e.g. its signature against a trust store); throw to refuse. */
  verifyElement?: (file: ElementFile) => void;
}

/** A `rye_execute` response: success, dry-run validation, or error with the chain. */
export type ToolResponse = { status: string; item_id: string } & Record<string, unknown>;

const PATH_KEYS = ["tool_path", "tool_dir", "tool_parent", "anchor_path", "runtime_lib"] as const;

const sha256 = (text: string) => createHash("sha256").update(text.replace(/^\uFEFF/, ""), "utf8").digest("hex");

/**
 * Runs a compiled plan: resolves its project-relative paths against `projectPath` (default: the
 * working directory), re-hashes every chain element against the text it was compiled from — a plan
 * is only as good as the files it was made of, so a changed runtime or tool is refused until the next
 * build, as the original refuses a stale lockfile — then templating and the spawn (`executePlan`).
 */
export async function runTool(plan: ChainPlan, params: Readonly<Record<string, unknown>> = {}, options: RunToolOptions = {}): Promise<ToolResponse> {
  const started = performance.now();
  const projectPath = resolve(options.projectPath ?? process.cwd());
  const osEnv = options.osEnv ?? process.env;
  const at = (p: string) => (p === "" || isAbsolute(p) ? p : resolve(projectPath, p));
  const context: Record<string, string> = {};
  for (const k of PATH_KEYS) context[k] = at(plan.context[k]);
  const refusal = checkFiles(plan.files ?? [], at, options.verifyElement);
  if (refusal) return toolErrorResponse(plan.item_id, refusal, plan.chain, performance.now() - started) as ToolResponse;
  return (await executePlan(plan, params, {
    ...options,
    projectPath,
    userSpace: options.userSpace ?? osEnv.USER_SPACE ?? homedir(),
    systemSpace: options.systemSpace ?? "",
    osEnv,
    context: { ...context, ...options.context },
    // The chain's files were just re-hashed against the plan: the dependency walk leaves them out.
    verifiedFiles: [...(options.verifiedFiles ?? []), ...(plan.files ?? []).map((f) => at(f.path))],
  })) as ToolResponse;
}

function checkFiles(files: readonly PlanFile[], at: (p: string) => string, verify: RunToolOptions["verifyElement"]): string | null {
  for (const f of files) {
    const absolutePath = at(f.path);
    let text: string;
    try {
      text = readRegularFile(absolutePath);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === "ENOENT" ? "not found" : `not readable: ${e instanceof Error ? e.message : String(e)}`;
      return `Chain element ${why}: ${f.item_id} (${absolutePath}). Run rye build.`;
    }
    if (sha256(text) !== f.sha256) {
      return `Integrity check failed: ${f.item_id} (${absolutePath}) changed since it was compiled. Run rye build.`;
    }
    try {
      verify?.({ ...f, absolutePath, text });
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }
  return null;
}
