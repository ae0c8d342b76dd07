// The run-time half of the evaluation rule (shell-evaluation.ts): the chain's templates put back as
// the chain wrote them; a placeholder counts when its value is the caller's or the environment's.
import { followTemplate } from "./bind-script-args.js";
import { refusedPlaceholder } from "./bind-shell-script.js";
import type { CallerValues } from "./caller-positions.js";
import { walkLaunchers } from "./launchers.js";
import { classifyScript } from "./shell-context.js";
import { evaluationSite } from "./shell-evaluation.js";
import { scriptPlaceholders } from "./shell-script.js";

/** Why a caller's value may not reach the shell script of this run, or null. */
export function evaluationProblem(v: CallerValues): string | null {
  const raw = [v.chainConfig.command, ...(Array.isArray(v.chainConfig.args) ? v.chainConfig.args : [])];
  const templates = raw.map((t) => (typeof t === "string" ? followTemplate(t, v.chainConfig, v.callerParams) : null));
  const own = Object.hasOwn(v.callerParams, "input_data");
  const input = own ? "{input_data}" : typeof v.chainConfig.input_data === "string" ? followTemplate(v.chainConfig.input_data, v.chainConfig, v.callerParams) : null;
  const outside = (p: { system: string; expr: string }) => p.system === "env" || v.origin.fromCaller(p.expr);
  const caller = (template: string) => (own && template === input ? [{ start: 0, end: template.length }] : scriptPlaceholders(template, v.origin.known).filter(outside));
  // A placeholder whose own position the binder refuses gets the binder's message, which names it.
  const launch = walkLaunchers(templates);
  const script = launch.family !== null && launch.script >= 0 ? templates[launch.script] : null;
  if (typeof script === "string") {
    const placeholders = scriptPlaceholders(script, v.origin.known);
    if (refusedPlaceholder(script, placeholders, classifyScript(script, placeholders), (p) => !outside(p)) !== null) return null;
  }
  return evaluationSite(templates, input, caller)?.message ?? null;
}
