// Shared by the interpreters-* tests: a one-element plan running a command through the execute
// primitive, a runner, the installed shells, and hostile values that would create a marker file if
// any of their bytes were read as code.
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { executePlan } from "../../src/runtime/exec/execute-plan.js";
import type { ChainPlan } from "../../src/runtime/exec/plan.js";

export function plan(dir: string, command: string, args: unknown[], config: Record<string, unknown> = {}): ChainPlan {
  return {
    item_id: "t/interp",
    chain: [],
    validation: { valid: true, issues: [], validated_pairs: 1 },
    root: { item_id: "rye/core/primitives/execute", executor_id: null },
    config: { command, args, timeout: 20, ...config },
    env_configs: [],
    anchor: null,
    verify_deps: null,
    config_resolve: [],
    context: { tool_path: join(dir, "t.yaml"), tool_dir: dir, tool_parent: tmpdir(), anchor_path: dir, runtime_lib: "" },
  };
}

export async function run(dir: string, p: ChainPlan, params: Record<string, unknown>, env: Record<string, string> = {}) {
  return (await executePlan(p, params, {
    projectPath: dir,
    userSpace: dir,
    systemSpace: "",
    dotenv: null,
    osEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
  })) as Record<string, any>;
}

/** Where a program is installed, or null (tests then skip with the reason printed). */
export function which(name: string): string | null {
  for (const dir of (process.env.PATH ?? "/usr/bin:/bin").split(":")) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** A shell as the argv that starts it (busybox takes its applet name first). */
export interface Shell {
  name: string;
  argv: string[];
  /** Supports bash-style `-O shopt` and `--norc`. */
  bashOptions: boolean;
}

const SHELL_NAMES = ["sh", "dash", "bash", "rbash", "zsh", "mksh", "lksh", "ksh93", "ksh", "yash", "posh"];

export function installedShells(): { shells: Shell[]; missing: string[] } {
  const shells: Shell[] = [];
  const missing: string[] = [];
  for (const name of SHELL_NAMES) {
    const path = which(name);
    if (path) shells.push({ name, argv: [path], bashOptions: name === "bash" || name === "rbash" });
    else missing.push(name);
  }
  const busybox = which("busybox");
  if (busybox) shells.push({ name: "busybox sh", argv: [busybox, "sh"], bashOptions: false });
  else missing.push("busybox");
  return { shells, missing };
}

/** The values rye accepts in positions that take inert values only. */
export const INERT = /^[A-Za-z0-9_]{0,4096}$/;

/** Hostile fragments: each one alone, or any mix, would create `marker` if read as code. */
export function hostileFragments(marker: string): string[] {
  return [
    `$(touch ${marker})`,
    `\`touch ${marker}\``,
    `a[$(touch ${marker})]`,
    `x[\`touch ${marker}\`]`,
    `; touch ${marker} #`,
    `| touch ${marker}`,
    `&& touch ${marker}`,
    `\ntouch ${marker}\n`,
    `'; touch ${marker}; '`,
    `"; touch ${marker}; "`,
    `\\'$(touch ${marker})`,
    `')\nimport os; os.system('touch ${marker}')#`,
    `");require('fs').writeFileSync('${marker}','')//`,
    `"; system("touch ${marker}"); "`,
    `${"$"}{x[$(touch ${marker})]}`,
    `-n`,
    `--help`,
    `-e`,
    `*`,
    ` `,
    `é\u202e`,
    `PATH`,
    `__rye_1`,
    `IFS`,
    `1+1`,
    `a.b/c:d,e+f=g-h`,
  ];
}

/** Hostile strings: mixes of fragments, inert words, and arbitrary Unicode (no NUL: no argv holds one). */
export function hostileValue(marker: string): fc.Arbitrary<string> {
  const fragments = hostileFragments(marker);
  return fc.oneof(
    fc.array(fc.constantFrom(...fragments), { minLength: 1, maxLength: 3 }).map((parts) => parts.join("")),
    fc.stringMatching(/^[A-Za-z0-9_.:,+=][A-Za-z0-9_./:,+=-]{0,12}$/),
    fc.string({ unit: "binary", maxLength: 10 }).map((s) => s.replace(/\0/g, "")),
    fc.constantFrom(...fragments),
  );
}
