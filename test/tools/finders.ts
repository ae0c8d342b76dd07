import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { searchOrder, type ResolvedTool, type Space, type ToolFinder } from "../../src/tools/build-chain.js";
import { TOOL_EXTENSIONS } from "../../src/tools/tool-metadata.js";

type SystemSpace = `system:${string}`;

/** A finder over `.ai/tools` directories on disk, one per space. */
export function dirFinder(roots: Partial<Record<Space, string>>): ToolFinder {
  const systems = Object.keys(roots).filter((s): s is SystemSpace => s.startsWith("system:"));
  return {
    resolve(itemId, fromSpace) {
      for (const space of searchOrder(fromSpace, systems)) {
        const root = roots[space];
        if (!root || !existsSync(root)) continue;
        for (const ext of TOOL_EXTENSIONS) {
          const path = join(root, itemId + ext);
          if (existsSync(path) && statSync(path).isFile()) return { path, space, ext, text: readFileSync(path, "utf8") };
        }
      }
      return undefined;
    },
  };
}

/** A finder over in-memory files: `{ space: { "rye/x/tool.py": text } }`. */
export function memoryFinder(files: Partial<Record<Space, Record<string, string>>>): ToolFinder & { lookups: string[] } {
  const systems = Object.keys(files).filter((s): s is SystemSpace => s.startsWith("system:"));
  const lookups: string[] = [];
  return {
    lookups,
    resolve(itemId, fromSpace): ResolvedTool | undefined {
      for (const space of searchOrder(fromSpace, systems)) {
        lookups.push(`${space}:${itemId}`);
        for (const ext of TOOL_EXTENSIONS) {
          const text = files[space]?.[itemId + ext];
          if (text !== undefined) return { path: `/${space.replace(":", "/")}/.ai/tools/${itemId}${ext}`, space, ext, text };
        }
      }
      return undefined;
    },
  };
}
