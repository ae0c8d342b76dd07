import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Env } from "./resolve-env.js";
import { templateString } from "./substitute-params.js";

/** `_anchor_applies`: off when disabled or `never`, on when `always`, else on if a marker file sits beside the tool. */
export function anchorApplies(anchor: Readonly<Record<string, unknown>>, toolDir: string): boolean {
  const mode = anchor.mode ?? "auto";
  if (mode === "never" || !anchor.enabled) return false;
  if (mode === "always") return true;
  const markers = Array.isArray(anchor.markers_any) ? anchor.markers_any : [];
  return markers.some((m) => existsSync(join(toolDir, String(m))));
}

/** `_resolve_anchor_path`: the directory named by `root` (tool_dir, tool_parent or project_path). */
export function resolveAnchorPath(anchor: Readonly<Record<string, unknown>>, ctx: Readonly<Record<string, string | undefined>>): string {
  const root = anchor.root ?? "tool_dir";
  if (root === "tool_parent") return ctx.tool_parent ?? "";
  if (root === "project_path") return ctx.project_path ?? "";
  return ctx.tool_dir ?? "";
}

/**
 * `_apply_anchor_env`: prepends/appends templated paths to path-list variables (e.g. PYTHONPATH),
 * starting from the resolved env or else the OS env, skipping empty and duplicate entries.
 */
export function applyAnchorEnv(
  anchor: Readonly<Record<string, unknown>>,
  env: Env,
  ctx: Readonly<Record<string, unknown>>,
  osEnv: Readonly<Record<string, string | undefined>>,
): Env {
  const envPaths = (anchor.env_paths ?? {}) as Record<string, { prepend?: unknown[]; append?: unknown[] }>;
  for (const [name, mutations] of Object.entries(envPaths)) {
    const existing = Object.hasOwn(env, name) ? env[name]! : (osEnv[name] ?? "");
    const parts = existing ? existing.split(delimiter).filter(Boolean) : [];
    for (const template of [...(mutations.prepend ?? [])].reverse()) {
      const path = templateString(String(template), ctx);
      if (path && !parts.includes(path)) parts.unshift(path);
    }
    for (const template of mutations.append ?? []) {
      const path = templateString(String(template), ctx);
      if (path && !parts.includes(path)) parts.push(path);
    }
    env[name] = parts.join(delimiter);
  }
  return env;
}
