import { upToLastCloser } from "../runtime/interpolate.js";
import type { ChainElement } from "./chain-element.js";

/** A placeholder written where its templating system never runs, found in one chain element. */
export interface ScopeProblem {
  kind: "foreign" | "unknown_param" | "lower_case_env";
  /** Index of the element in the chain. */
  element: number;
  /** The placeholder as written, e.g. `{input:x}`. */
  raw: string;
  /** Which metadata field holds it: `config` or `env_config`. */
  field: "config" | "env_config";
  /** The fix, for `foreign` problems. */
  fix?: string;
}

/** Names every planned config can use besides the tool's own parameters (rye-reference §2.3). */
export const BUILTIN_PARAMS: readonly string[] = [
  "tool_path", "tool_dir", "tool_parent", "anchor_path", "runtime_lib", "project_path", "user_space", "system_space",
  "params_json", "env", "cwd", "timeout", "resolved_config",
  // Executor parameters the original keeps out of params_json (MCP runtimes pass them).
  "server", "tool_name", "server_config_path", "fixed_params", "params_key",
];

const UPPER_ENV = /^[A-Z_][A-Z0-9_]*(?::-[^}]*)?$/;
const LOWER_ENV = /^([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?$/;

function visitStrings(value: unknown, path: string, visit: (s: string, path: string) => void): void {
  if (typeof value === "string") visit(value, path);
  else if (Array.isArray(value)) value.forEach((v, i) => visitStrings(v, `${path}[${i}]`, visit));
  else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) visitStrings(v, `${path}.${k}`, visit);
}

const schemaProperties = (schema: unknown): string[] | null => {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return null;
  const props = (schema as Record<string, unknown>).properties;
  return props !== null && typeof props === "object" && !Array.isArray(props) ? Object.keys(props) : null;
};

/**
 * Decisions #13: each placeholder syntax is valid only in its stage. In a chain's `config` and
 * `env_config` only System 1 (`${VAR}`, upper case) and System 2 (`{param}`) run, so `{input:x}`,
 * `${state.x}` and `${var}` reach the command literally; and a `{param}` in `config.args` must be a
 * parameter the tool declares, a key of the merged config or a path variable. Tools without a
 * declared parameter list are not checked for unknown parameters, since any parameter may arrive.
 */
export function checkChainScopes(chain: readonly ChainElement[], mergedConfig: Readonly<Record<string, unknown>>): { problems: ScopeProblem[]; known: string[] } {
  const problems: ScopeProblem[] = [];
  const declared = schemaProperties(chain[0]?.metadata.config_schema);
  const executionParams = chain.flatMap((e) => (Array.isArray(e.metadata.execution_params) ? e.metadata.execution_params.map(String) : []));
  const known = [...new Set([...(declared ?? []), ...Object.keys(mergedConfig), ...executionParams, ...BUILTIN_PARAMS])];
  chain.forEach((e, element) => {
    for (const field of ["config", "env_config"] as const) {
      visitStrings(e.metadata[field], field, (whole, path) => {
        // Every pattern below ends in `}`: searching up to the last one keeps each scan linear.
        const s = upToLastCloser(whole);
        for (const m of s.matchAll(/\{input:[^}]*\}/g)) {
          const name = m[0].slice(7, -1).replace(/[?:].*$/, "");
          problems.push({ kind: "foreign", element, raw: m[0], field, fix: `Directive inputs do not reach tools: pass '${name}' as a tool parameter and write '{${name}}'.` });
        }
        for (const m of s.matchAll(/\$\{([^}]*)\}/g)) {
          const body = m[1]!;
          if (UPPER_ENV.test(body)) continue;
          const lower = LOWER_ENV.exec(body);
          if (lower) problems.push({ kind: "lower_case_env", element, raw: m[0], field, fix: lower[1] });
          else {
            const last = body.split(/[.|[]/).filter(Boolean).at(-1) ?? "value";
            problems.push({ kind: "foreign", element, raw: m[0], field, fix: `Graph state and context paths are resolved before a tool runs: pass the value as a tool parameter and write '{${last.replace(/\W/g, "_")}}'.` });
          }
        }
        if (declared === null || !/^config\.args\[\d+\]$/.test(path)) return;
        for (const m of s.matchAll(/\{([^}]+)\}/g)) {
          // `${VAR}` is System 1, expanded before any `{param}` pass: not a parameter reference.
          if (m.index > 0 && s[m.index - 1] === "$") continue;
          const name = m[1]!;
          if (/^\w+$/.test(name) && !known.includes(name)) problems.push({ kind: "unknown_param", element, raw: m[0], field });
        }
      });
    }
  });
  return { problems, known };
}
