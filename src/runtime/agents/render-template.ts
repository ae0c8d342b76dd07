// One left-to-right pass over a template: each known placeholder is replaced once and inserted
// values are never scanned again, so a prompt containing "{bin}" or "{date}" stays as written
// (the original tool's repeated ReplaceAll calls rewrote such text in random order).
import { PLACEHOLDER, inScope, type AgentScope } from "./scopes.js";

/** Fills the placeholders of `scope` from `values`; unknown or out-of-scope names stay literal. */
export function renderTemplate(template: string, scope: AgentScope, values: Readonly<Record<string, string | undefined>>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const v = inScope(name, scope) && Object.hasOwn(values, name) ? values[name] : undefined;
    return v === undefined ? whole : v;
  });
}

/** `{date}`: ISO 8601 with the local offset and no fractional seconds, e.g. 2025-01-07T14:30:00+10:00. */
export function isoDate(now = new Date()): string {
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, "0");
  const offset = -now.getTimezoneOffset();
  const zone = offset === 0 ? "Z" : `${offset > 0 ? "+" : "-"}${pad(offset / 60)}:${pad(offset % 60)}`;
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}${zone}`;
}

/** `{instructions}` is "None" when empty, as seed 003 specifies. */
export function instructionsValue(args: readonly string[]): string {
  const text = args.join(" ");
  return text === "" ? "None" : text;
}
