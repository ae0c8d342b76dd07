import { followTemplate } from "../runtime/exec/bind-script-args.js";
import { refusedPlaceholder } from "../runtime/exec/bind-shell-script.js";
import { walkLaunchers, type Word } from "../runtime/exec/launchers.js";
import { classifyScript } from "../runtime/exec/shell-context.js";
import { scriptPlaceholders } from "../runtime/exec/shell-script.js";
import { isWholePlaceholder, optionArgumentMessage } from "../runtime/exec/spliced-args.js";
import { launchCode, launchCodeProblem } from "../runtime/exec/launch-code.js";
import { evaluationSite } from "../runtime/exec/shell-evaluation.js";
import { stdinRole } from "../runtime/exec/stdin-readers.js";
import { argsShapeMessage, commandFillMessage, cwdFillMessage, declaredParams } from "../runtime/exec/caller-params.js";
import { envFillMessage } from "../runtime/exec/value-channels.js";
import { wholeArgProblem, wholeArgRule } from "../runtime/exec/whole-args.js";
import type { ChainElement } from "./build-chain.js";

/** A placeholder found in a config template, with the text around it to locate it in the file. */
export interface PlaceholderSite {
  /** Index of the chain element whose config holds the template. */
  element: number;
  /** The placeholder as written, e.g. `{text}`, `${HOME}`. */
  raw: string;
  /** The template's text from the start of the placeholder's line through the placeholder. */
  context: string;
}

/** What the build knows about the values a command's templates take. */
export interface SplicedValueReport {
  /** A proven shell's `-c` script that takes values (RYE4011), if any. */
  script: (PlaceholderSite & { shell: string; placeholders: string[] }) | null;
  /** Placeholders in script positions rye cannot prove (RYE4012), with why. */
  refused: (PlaceholderSite & { message: string })[];
  /** Placeholders that accept only inert values at run time (RYE4013), with where. */
  inert: (PlaceholderSite & { where: string })[];
}

const WORD = /^[\p{L}\p{N}_]+$/u;
const base = (command: string) => command.slice(command.lastIndexOf("/") + 1);
// rye's own paths: the tool author's and the installer's text, never a caller's.
const CONTEXT = new Set(["tool_path", "tool_dir", "tool_parent", "anchor_path", "runtime_lib", "project_path", "user_space", "system_space"]);

/**
 * Decisions #10 and the interpreter rule: finds the `-c` script a proven shell runs (through any
 * launchers) and classifies each placeholder in it; every other argument with a spliced placeholder
 * whose value can come from the caller or the environment accepts only inert values. Names with
 * other characters (`{print $1}` in an awk program) are never substituted and do not count.
 */
export function checkSplicedValues(chain: readonly ChainElement[], config: Readonly<Record<string, unknown>>): SplicedValueReport {
  const report: SplicedValueReport = { script: null, refused: [], inert: [] };
  const args = Array.isArray(config.args) ? (config.args as unknown[]) : [];
  const words: Word[] = [config.command, ...args].map((w) => (typeof w === "string" && scriptPlaceholders(w, (n) => WORD.test(n)).length === 0 ? w : null));
  const launch = walkLaunchers(words);
  const scriptIndex = launch.proven && launch.family && launch.script >= 1 ? launch.script - 1 : -1;
  const fromOutside = (name: string) => name === "params_json" || (!CONTEXT.has(name) && !Object.hasOwn(config, name));
  const program = launch.name || String(config.command);
  [config.command, ...args].forEach((raw, k) => {
    if (typeof raw !== "string") return;
    const template = followTemplate(raw, config, {});
    if (scriptIndex >= 0 && k - 1 === scriptIndex) return scriptSites(chain, template, launch.name, fromOutside, report);
    if (isWholePlaceholder(template)) return;
    // An option word before `--` (or a shell's script): a value spliced into it is the option's argument.
    const optionWord = k > 0 && template.startsWith("-") && !args.slice(0, k - 1).includes("--") && !(scriptIndex >= 0 && k - 1 > scriptIndex);
    for (const p of scriptPlaceholders(template, (n) => WORD.test(n))) {
      if (p.system === "param" && !fromOutside(p.expr)) continue;
      const refusal = optionWord ? optionArgumentMessage(base(String(config.command)), template, p) : null;
      if (refusal) {
        report.refused.push({ ...site(chain, template, p.start, p.end), message: refusal });
        continue;
      }
      const where = k === 0 ? "the command" : `argument ${k} of ${program}${launch.proven ? "" : ` (${launch.reason ?? "not proven"})`}`;
      report.inert.push({ ...site(chain, template, p.start, p.end), where });
    }
  });
  checkLaunchAndStdin(chain, config, fromOutside, report);
  checkEnvValues(chain, fromOutside, report);
  checkWhatRuns(chain, config, fromOutside, report);
  return report;
}

/**
 * The run's refusals of what runs (caller-params.ts), where the build sees them: `args` that is not
 * a list, and a program or working directory a caller's value can choose (a name from outside the
 * chain, or a config key the tool declares, which a caller may override).
 */
function checkWhatRuns(chain: readonly ChainElement[], config: Readonly<Record<string, unknown>>, fromOutside: (name: string) => boolean, report: SplicedValueReport): void {
  const args = config.args;
  if (args !== undefined && args !== null && !Array.isArray(args)) {
    const written = typeof args === "string" ? args : JSON.stringify(args) ?? String(args);
    const at = site(chain, written, 0, written.length);
    report.refused.push({ ...at, context: written.split("\n")[0]!, message: argsShapeMessage(written) });
  }
  const declared = declaredParams(chain[0]?.metadata.config_schema);
  const choosable = (name: string) => !CONTEXT.has(name) && (fromOutside(name) || declared.has(name));
  for (const field of ["command", "cwd"] as const) {
    const template = config[field];
    if (typeof template !== "string") continue;
    const chosen = [...paramsReachedFrom(config, template)].find(choosable);
    if (chosen === undefined) continue;
    // Point at the field's own placeholder that leads to the chosen name.
    const first = scriptPlaceholders(template, (n) => WORD.test(n)).find((p) => p.system === "param") ?? { start: 0, end: template.length };
    const message = field === "command" ? commandFillMessage(`{${chosen}}`) : cwdFillMessage(`{${chosen}}`);
    report.refused.push({ ...site(chain, template, first.start, first.end), message });
  }
}

/** The environment rule at build: a caller's placeholder in any chain element's `env_config.env` value. */
function checkEnvValues(chain: readonly ChainElement[], fromOutside: (name: string) => boolean, report: SplicedValueReport): void {
  chain.forEach((e, element) => {
    const envConfig = e.metadata.env_config;
    const env = envConfig !== null && typeof envConfig === "object" ? (envConfig as Record<string, unknown>).env : undefined;
    if (env === null || typeof env !== "object") return;
    for (const [name, template] of Object.entries(env as Record<string, unknown>)) {
      if (typeof template !== "string") continue;
      for (const p of scriptPlaceholders(template, (n) => WORD.test(n))) {
        // `${home}` is RYE4008's mistake (a lower-case variable), reported there once.
        if (p.system !== "param" || !fromOutside(p.expr) || template[p.start - 1] === "$") continue;
        const at = { element, ...spanText(template, p.start, p.end) };
        report.refused.push({ ...at, message: envFillMessage(at.raw, name) });
      }
    }
  });
}

/**
 * The launch-position and stdin rules (launch-code.ts, stdin-readers.ts) where the build can prove
 * them: a word counts as unknown when it holds a caller's or the environment's value.
 */
function checkLaunchAndStdin(chain: readonly ChainElement[], config: Readonly<Record<string, unknown>>, fromOutside: (name: string) => boolean, report: SplicedValueReport): void {
  const templates = [config.command, ...(Array.isArray(config.args) ? (config.args as unknown[]) : [])].map((raw) => (typeof raw === "string" ? followTemplate(raw, config, {}) : null));
  const outside = (template: string) => scriptPlaceholders(template, (n) => WORD.test(n)).filter((p) => p.system === "env" || fromOutside(p.expr));
  const words: Word[] = templates.map((t) => (t === null || outside(t).length > 0 ? null : t));
  const code = launchCode(words);
  templates.forEach((template, k) => {
    if (template === null) return;
    for (const p of outside(template)) {
      if (p.system !== "param") continue;
      const whole = isWholePlaceholder(template);
      const message = launchCodeProblem(code, template.slice(p.start, p.end), k, whole);
      if (message) report.refused.push({ ...site(chain, template, p.start, p.end), message });
      // A program named by a value is judged by the run, once the value names it (an interpreter, say).
      else if (whole && k > 0 && words[0] !== null) wholeArgSite(chain, template, p, wholeArgRule(words, k), report);
    }
  });
  const input = typeof config.input_data === "string" ? followTemplate(config.input_data, config, {}) : null;
  const evaluated = evaluationSite(templates, input, outside);
  if (evaluated) {
    const template = evaluated.template < 0 ? input! : templates[evaluated.template]!;
    report.refused.push({ ...site(chain, template, evaluated.start, evaluated.end), message: evaluated.message });
  }
  // The program is known only when the command is literal text; otherwise the run decides.
  if (input === null || words[0] === null || scriptPlaceholders(String(config.command), (n) => WORD.test(n)).length > 0) return;
  const role = stdinRole(words);
  for (const p of outside(input)) {
    const at = site(chain, input, p.start, p.end);
    if (role.role === "refuse") report.refused.push({ ...at, message: `placeholder '${at.raw}' in input_data reaches the ${role.reason}, so its value would be read as code` });
    else if (role.role === "inert") report.inert.push({ ...at, where: `input_data, the ${role.reason}` });
  }
}

/**
 * A whole argument judged by the receiving program's grammar, as the run will judge it: where that
 * refuses every value or takes only inert ones, the build says so. Operand rules (no leading `-`,
 * no two-argument open) depend on the value and are left to the run.
 */
function wholeArgSite(chain: readonly ChainElement[], template: string, p: { start: number; end: number }, rule: ReturnType<typeof wholeArgRule>, report: SplicedValueReport): void {
  const at = site(chain, template, p.start, p.end);
  if (rule.kind === "refused") report.refused.push({ ...at, message: wholeArgProblem(at.raw, "", rule)! });
  else if (rule.kind === "inert") report.inert.push({ ...at, where: `a whole argument of ${rule.program}` });
}

/** The System 2 names a template reaches, through the config keys they name (`${VAR}` is the environment's). */
function paramsReachedFrom(config: Readonly<Record<string, unknown>>, template: string): Set<string> {
  const reached = new Set<string>();
  const queue = [template];
  while (queue.length > 0) {
    for (const p of scriptPlaceholders(queue.pop()!, (n) => WORD.test(n))) {
      if (p.system !== "param" || reached.has(p.expr)) continue;
      reached.add(p.expr);
      const next = Object.hasOwn(config, p.expr) ? config[p.expr] : undefined;
      if (typeof next === "string") queue.push(next);
    }
  }
  return reached;
}

function scriptSites(chain: readonly ChainElement[], template: string, shell: string, fromOutside: (name: string) => boolean, report: SplicedValueReport): void {
  const placeholders = scriptPlaceholders(template, (n) => WORD.test(n));
  if (placeholders.length === 0) return;
  const recs = classifyScript(template, placeholders);
  for (const r of recs) {
    const p = placeholders[r.index]!;
    const at = site(chain, template, p.start, p.end);
    if (r.quote === "comment" || (p.system === "param" && !fromOutside(p.expr))) continue;
    if (r.role === "inert") report.inert.push({ ...at, where: `the ${shell} -c script ${r.reason ?? ""}`.trimEnd() });
    else if (r.role !== "full") report.refused.push({ ...at, message: refusedPlaceholder(template, [p], [{ ...r, index: 0 }])! });
  }
  if (report.refused.length > 0) return;
  const first = placeholders[0]!;
  report.script = { ...site(chain, template, first.start, first.end), shell, placeholders: [...new Set(placeholders.map((p) => template.slice(p.start, p.end)))] };
}

function site(chain: readonly ChainElement[], template: string, start: number, end: number): PlaceholderSite {
  return { element: writer(chain, template), ...spanText(template, start, end) };
}

/** A placeholder's text and its line of the template up to it (how the build finds it in the file). */
function spanText(template: string, start: number, end: number): { raw: string; context: string } {
  const lineStart = template.lastIndexOf("\n", start - 1) + 1;
  return { raw: template.slice(start, end), context: template.slice(lineStart, end) };
}

/** The element that wrote a template: the nearest to the tool whose config holds it. */
function writer(chain: readonly ChainElement[], template: string): number {
  const element = chain.findIndex((e) => {
    const own = e.metadata.config;
    return own !== null && typeof own === "object" && Object.values(own as Record<string, unknown>).some((v) => v === template || (Array.isArray(v) && v.includes(template)));
  });
  return Math.max(0, element);
}
