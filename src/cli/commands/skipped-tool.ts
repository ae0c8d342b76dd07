// Why `rye run tool <id>` finds no compiled module when the build skipped the file by rule (RYE1012):
// a `.sh` script, a helper module without metadata, a `.json`/`.toml` support file, a file in a
// skipped folder. Said with the rule, instead of sending the user to look for build errors.
import { compileTools } from "../../compile/compile-tools.js";
import { readProject } from "../../project/read-project.js";

/** The build's RYE1012 for tool `id` of `project` (the file or folder skipped, and why), or null. */
export function skippedTool(project: string, id: string): { path: string; why: string } | null {
  const { sources, diagnostics } = readProject(project, ["tool"]);
  const base = `.ai/tools/${id}`;
  const own = sources.filter((s) => s.id === id);
  for (const x of [...diagnostics, ...(own.length > 0 ? compileTools(own).diagnostics : [])]) {
    const path = x.loc?.source;
    if (x.code !== "RYE1012" || !path) continue;
    const names = path === base || (path.startsWith(`${base}.`) && !path.slice(base.length + 1).includes("/"));
    if (names || base.startsWith(`${path}/`)) return { path, why: x.message.replace(/^Skipped: /, "").replace(/\.$/, "") };
  }
  return null;
}
