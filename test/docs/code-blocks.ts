// The fenced code blocks of the docs, with their info strings, so tests can compile or run them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One fenced block: its file, the line it starts on, its language and attributes, and its text. */
export interface CodeBlock {
  file: string;
  line: number;
  lang: string;
  attrs: Record<string, string>;
  text: string;
  /** The prose between the previous block and this one. */
  before: string;
}

/** Every fenced block of every `.md` file in `dir` (fences of three or more backticks, nested longer ones kept whole). */
export function codeBlocks(dir: string): CodeBlock[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .flatMap((name) => blocksOf(join(dir, name), name));
}

/** The fenced blocks of one markdown file, named `name` in the results. */
export function blocksOf(path: string, name: string): CodeBlock[] {
  const out: CodeBlock[] = [];
  {
    const lines = readFileSync(path, "utf8").split("\n");
    let prose: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      // As in CommonMark, a backtick fence's info string holds no backtick (```` ```xml ```` in prose is code, not a fence).
      const open = /^(`{3,})([^`\s]*)[ \t]*([^`]*)$/.exec(lines[i]!);
      if (!open) {
        prose.push(lines[i]!);
        continue;
      }
      const fence = open[1]!;
      const end = lines.findIndex((l, j) => j > i && l.trim() === fence);
      // `key=value` attributes, and bare words as flags (`run`).
      const attrs = Object.fromEntries([...open[3]!.matchAll(/(\w+)(?:=(\S+))?/g)].map((m) => [m[1]!, m[2] ?? "true"]));
      out.push({ file: name, line: i + 1, lang: open[2]!, attrs, text: `${lines.slice(i + 1, end).join("\n")}\n`, before: prose.join("\n") });
      prose = [];
      i = end;
    }
  }
  return out;
}
