import { pyStr, pyStrip } from "../pystr.js";
import { bindShellScript, UnsafeScriptPlaceholder } from "./bind-shell-script.js";
import type { EnvMap } from "./expand-env.js";
import { findShellScript, scriptPlaceholders, shellName } from "./shell-script.js";

/** The script argument of a shell command as the chain wrote it, before any value went in. */
export interface ScriptSource {
  index: number;
  template: string;
  posix: boolean;
}

const WHOLE = /^\{([\p{L}\p{N}_]+)\}$/u;
const MAX_INDIRECTION = 3;

/**
 * Finds the `-c` script of a planned command and its template: the chain's own text, following a
 * script that is one `{key}` to that key of the chain's config (as `args: ["-c", "{script}"]`
 * does), unless the caller passed a parameter of that name — then the value is data like any other.
 */
export function scriptSource(
  command: unknown,
  args: unknown,
  chainConfig: Readonly<Record<string, unknown>>,
  callerParams: Readonly<Record<string, unknown>>,
): ScriptSource | null {
  if (!Array.isArray(args)) return null;
  const { index, posix } = findShellScript(command, args);
  const raw = index >= 0 ? (Array.isArray(chainConfig.args) ? chainConfig.args[index] : undefined) : undefined;
  if (typeof raw !== "string") return null;
  let template = raw;
  for (let hop = 0; hop < MAX_INDIRECTION; hop++) {
    const name = WHOLE.exec(pyStrip(template))?.[1];
    if (!name || Object.hasOwn(callerParams, name) || !Object.hasOwn(chainConfig, name)) break;
    const next = chainConfig[name];
    if (typeof next !== "string") break;
    template = next;
  }
  return { index, template, posix };
}

/**
 * Replaces the script argument with its bound form and inserts the values after `$0` (the argument
 * after the script, or the shell's name when there is none). `param` resolves a System 2 name as the
 * execute primitive would; `env` is what System 1 expanded against.
 */
export function bindScriptArgs(command: string, args: readonly string[], source: ScriptSource, param: (name: string) => unknown, env: EnvMap): string[] {
  const has = (name: string) => param(name) !== undefined;
  const placeholders = scriptPlaceholders(source.template, has);
  if (placeholders.length === 0) return [...args.slice(0, source.index), source.template, ...args.slice(source.index + 1)];
  if (!source.posix) {
    throw new UnsafeScriptPlaceholder(`${shellName(command)} is not a POSIX shell, so no value can be passed into its -c script safely; pass values as arguments after the script`);
  }
  const values = placeholders.map((p) => (p.system === "env" ? envValue(env, p.expr) : pyStr(param(p.expr))));
  const bound = bindShellScript(source.template, placeholders, values);
  const after = args.slice(source.index + 1);
  const name0 = after.length > 0 ? after[0]! : shellName(command);
  return [...args.slice(0, source.index), bound.script, name0, ...bound.values, ...after.slice(1)];
}

function envValue(env: EnvMap, expr: string): string {
  const split = expr.indexOf(":-");
  const name = split < 0 ? expr : expr.slice(0, split);
  const value = Object.hasOwn(env, name) ? env[name] : undefined;
  return value ?? (split < 0 ? "" : expr.slice(split + 2));
}
