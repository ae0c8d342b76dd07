import { pyStr, pyStrip } from "../pystr.js";
import { bindShellScript } from "./bind-shell-script.js";
import type { EnvMap } from "./expand-env.js";
import type { Word } from "./launchers.js";
import { findShellScript, scriptPlaceholders, type ScriptPlaceholder } from "./shell-script.js";

/** The script argument of a shell command as the chain wrote it, before any value went in. */
export interface ScriptSource {
  index: number;
  template: string;
  /** The shell's name (the default `$0`), found through any launchers. */
  shell: string;
}

const WHOLE = /^\{([\p{L}\p{N}_]+)\}$/u;
const MAX_INDIRECTION = 3;

/**
 * An argument's template as the chain wrote it: a template that is one `{key}` leads to that key of
 * the chain's config (as `args: ["-c", "{script}"]` does), unless the caller passed a parameter of
 * that name — then the value is the caller's, one whole argument like any other.
 */
export function followTemplate(raw: string, chainConfig: Readonly<Record<string, unknown>>, callerParams: Readonly<Record<string, unknown>>): string {
  let template = raw;
  for (let hop = 0; hop < MAX_INDIRECTION; hop++) {
    const name = WHOLE.exec(pyStrip(template))?.[1];
    if (!name || Object.hasOwn(callerParams, name) || !Object.hasOwn(chainConfig, name)) break;
    const next = chainConfig[name];
    if (typeof next !== "string") break;
    template = next;
  }
  return template;
}

/** Which placeholder values come from outside the chain, and which names resolve at all. */
export interface ValueOrigin {
  /** Whether a System 2 name's value is the caller's (untrusted). */
  fromCaller: (name: string) => boolean;
  /** Whether a System 2 name resolves. */
  known: (name: string) => boolean;
}

/**
 * The argv rye walks to find a script: each word as run when the chain wrote it or filled it from its
 * own keys or rye's paths; null where a caller's or the environment's value went in, so that such a
 * value can never steer which argument is the script (a value such as `-e…` would otherwise make the
 * walk stop and leave the value itself as the script).
 */
export function walkWords(command: unknown, args: readonly unknown[], chainConfig: Readonly<Record<string, unknown>>, callerParams: Readonly<Record<string, unknown>>, origin: ValueOrigin): Word[] {
  const templates = [chainConfig.command, ...(Array.isArray(chainConfig.args) ? chainConfig.args : [])];
  return [command, ...args].map((actual, i) => {
    const raw = templates[i];
    if (typeof actual !== "string" || typeof raw !== "string") return null;
    const template = followTemplate(raw, chainConfig, callerParams);
    const caller = scriptPlaceholders(template, origin.known).some((p) => p.system === "env" || origin.fromCaller(p.expr));
    return caller ? null : actual;
  });
}

/**
 * Finds the `-c` script of a planned command (through launchers such as `env` or `timeout`) and its
 * template, the chain's own text. Null when the command runs no script rye can prove is one.
 * Without `origin`, every word counts as written (the build's view of the chain's own config).
 */
export function scriptSource(
  command: unknown,
  args: unknown,
  chainConfig: Readonly<Record<string, unknown>>,
  callerParams: Readonly<Record<string, unknown>>,
  origin?: ValueOrigin,
): ScriptSource | null {
  if (!Array.isArray(args)) return null;
  const words = origin ? walkWords(command, args, chainConfig, callerParams, origin) : [command, ...args];
  const { index, shell } = findShellScript(words[0], words.slice(1));
  const raw = index >= 0 ? (Array.isArray(chainConfig.args) ? chainConfig.args[index] : undefined) : undefined;
  if (typeof raw !== "string") return null;
  return { index, template: followTemplate(raw, chainConfig, callerParams), shell };
}

/**
 * Replaces the script argument with its bound form and inserts the values after `$0` (the argument
 * after the script, or the shell's name when there is none). `param` resolves a System 2 name as the
 * execute primitive would; `env` is what System 1 expanded against.
 */
export function bindScriptArgs(
  args: readonly string[],
  source: ScriptSource,
  param: (name: string) => unknown,
  env: EnvMap,
  options: { nonce?: string; fromCaller?: (name: string) => boolean } = {},
): string[] {
  const has = (name: string) => param(name) !== undefined;
  const placeholders = scriptPlaceholders(source.template, has);
  if (placeholders.length === 0) return [...args.slice(0, source.index), source.template, ...args.slice(source.index + 1)];
  const values = placeholders.map((p) => (p.system === "env" ? envValue(env, p.expr) : pyStr(param(p.expr))));
  const fromCaller = options.fromCaller ?? (() => true);
  const trusted = (p: ScriptPlaceholder) => p.system === "param" && !fromCaller(p.expr);
  const bound = bindShellScript(source.template, placeholders, values, { nonce: options.nonce, shell: source.shell, trusted });
  const after = args.slice(source.index + 1);
  const name0 = after.length > 0 ? after[0]! : source.shell;
  return [...args.slice(0, source.index), bound.script, name0, ...bound.values, ...after.slice(1)];
}

/** A System 1 placeholder's value: `${VAR}` or `${VAR:-default}` against `env`. */
export function envValue(env: EnvMap, expr: string): string {
  const split = expr.indexOf(":-");
  const name = split < 0 ? expr : expr.slice(0, split);
  const value = Object.hasOwn(env, name) ? env[name] : undefined;
  return value ?? (split < 0 ? "" : expr.slice(split + 2));
}
