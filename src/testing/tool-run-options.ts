// How `rye test --run` runs a tool from the sources or built output: as `rye run tool` does, against
// the project's files, with every signed chain element and every file of a runtime's verify_deps
// scope checked before anything spawns.
import { execa } from "execa";
import { trustForSpaces } from "../builder/signing.js";
import { dependencyVerifier } from "../bundle/dependency-verifier.js";
import type { Execa } from "../runtime/exec/run-process.js";
import type { ElementFile } from "../runtime/exec/run-tool.js";
import type { TrustStore } from "../sign/trust-store.js";
import { verifyItem } from "../sign/verify-item.js";
import type { ToolRunner } from "./targets.js";

export interface ToolRunPlace {
  project: string;
  userSpace: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  trustedKeys: readonly string[];
}

/** Runs a tool from the sources or built output as `rye run tool` runs one. */
export function projectToolRunner(p: ToolRunPlace): ToolRunner {
  const base = toolRunOptions(p);
  return (_id, tool, params, dryRun) => tool.execute(params, { ...base, configSchema: tool.metadata?.config_schema, dryRun });
}

function toolRunOptions(p: ToolRunPlace): Record<string, unknown> {
  const spaces = [{ root: p.project, label: "project" }, { root: p.userSpace, label: "user" }];
  let trust: TrustStore | undefined;
  const verifyElement = (file: ElementFile) => {
    if (!file.signed) return;
    trust ??= trustForSpaces(spaces, p.env);
    const result = verifyItem(file.text, "tool", trust, { path: file.absolutePath });
    if (!result.ok) throw new Error(result.message);
  };
  return {
    projectPath: p.project,
    userSpace: p.userSpace,
    osEnv: p.env,
    verifyElement,
    verifyDependency: dependencyVerifier({ spaces, env: p.env, trustedKeys: p.trustedKeys, cwd: p.cwd }),
    execa: execa as unknown as Execa,
  };
}
