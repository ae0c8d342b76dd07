// `rye test --out DIR`: the items of built output, each file checked against the signed manifest
// by the verifying loader as it loads, as an application loads them.
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { registerVerifier } from "../register/register-verifier.js";
import { readProvenance } from "../runtime/provenance-file.js";
import type { ItemProvenance } from "../runtime/provenance.js";
import { emptyBroken, type DirectiveTarget, type KnowledgeTarget, type Targets, type ToolTarget } from "./targets.js";

export interface OutputTrust {
  trustedKeys: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** Loads `outDir`'s directives, tools and knowledge; throws IntegrityError when a file does not verify. */
export async function loadOutput(outDir: string, trust: OutputTrust): Promise<Targets> {
  if (!existsSync(join(outDir, "index.js"))) throw new Error(`No build output at ${outDir}: run rye build first.`);
  registerVerifier({ trustedKeys: [...trust.trustedKeys], outputDirs: [outDir], cwd: trust.cwd, env: trust.env });
  const index = (await import(pathToFileURL(join(outDir, "index.js")).href)) as { directives: Record<string, DirectiveTarget> };
  const tools = existsSync(join(outDir, "tools.js")) ? ((await import(pathToFileURL(join(outDir, "tools.js")).href)) as { tools: Record<string, ToolTarget> }).tools : {};
  const knowledge = new Map<string, KnowledgeTarget>();
  for (const rel of modulesUnder(join(outDir, "knowledge"), "")) {
    const mod = (await import(pathToFileURL(join(outDir, "knowledge", rel)).href)) as KnowledgeTarget;
    knowledge.set(rel.slice(0, -".js".length), mod);
  }
  // The record joins a module's own facts to the signed root manifest's (read once for the folder).
  const provenance = (kind: string, id: string) => {
    const mod = (kind === "directive" ? index.directives[id] : kind === "tool" ? tools[id] : knowledge.get(id)) as { provenance?: ItemProvenance } | undefined;
    return mod?.provenance ? readProvenance(outDir, mod as { provenance: ItemProvenance }) : null;
  };
  return { directive: new Map(Object.entries(index.directives)), tool: new Map(Object.entries(tools)), knowledge, broken: emptyBroken(), absent: new Set(), provenance, dispose: () => {} };
}

function modulesUnder(dir: string, prefix: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const st = lstatSync(join(dir, name));
    if (st.isDirectory()) out.push(...modulesUnder(join(dir, name), `${prefix}${name}/`));
    else if (st.isFile() && name.endsWith(".js")) out.push(`${prefix}${name}`);
  }
  return out;
}
