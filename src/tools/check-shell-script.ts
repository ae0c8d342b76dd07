import { scriptSource } from "../runtime/exec/bind-script-args.js";
import { scriptPlaceholders, shellName } from "../runtime/exec/shell-script.js";
import type { ChainElement } from "./build-chain.js";

/** A shell `-c` script in a chain's config whose text takes substituted values. */
export interface ShellScriptSubstitution {
  /** Index of the chain element whose config holds the script text. */
  element: number;
  shell: string;
  /** The placeholders as written, e.g. `{text}`, `${HOME}`. */
  placeholders: string[];
}

const WORD = /^[\p{L}\p{N}_]+$/u;

/**
 * Decisions #10: a command that runs a shell with `-c` and a script into which `${VAR}` or `{param}`
 * values are substituted. Those values reach the shell as positional parameters at run time; the
 * warning says so and shows how to write it that way. Names with other characters (`{print $1}` in
 * an awk program) are never substituted and do not count.
 */
export function findShellScriptSubstitution(chain: readonly ChainElement[], config: Readonly<Record<string, unknown>>): ShellScriptSubstitution | null {
  const source = scriptSource(config.command, config.args, config, {});
  if (!source) return null;
  const found = scriptPlaceholders(source.template, (name) => WORD.test(name));
  if (found.length === 0) return null;
  const placeholders = [...new Set(found.map((p) => source.template.slice(p.start, p.end)))];
  // The element that wrote the script text: the nearest to the tool whose config holds it.
  const element = chain.findIndex((e) => {
    const own = e.metadata.config;
    return own !== null && typeof own === "object" && Object.values(own as Record<string, unknown>).some((v) => v === source.template || (Array.isArray(v) && v.includes(source.template)));
  });
  return { element: Math.max(0, element), shell: shellName(String(config.command)), placeholders };
}
