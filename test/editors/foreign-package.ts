// Finds editor commands that could run some other npm package than rye-build: npx without
// `--no-install rye-build` (npx downloads what is missing, silently when stdin is no terminal; the
// package `rye` on npm is an unrelated one), and command lists that start with the bare name `rye`
// (a global install, or whatever is on PATH under that name).

/** The tokens after a position, skipping the quotes, commas and brackets of lists in Lua/TOML/JSON. */
function tokensAfter(text: string, at: number, count: number): string[] {
  const re = /[\s"',\\]*([^\s"',\\\]})]+)/y;
  re.lastIndex = at;
  const out: string[] = [];
  for (let m; out.length < count && (m = re.exec(text)); ) out.push(m[1]!);
  return out;
}

/** Each place in `text` that starts a command which may run another package, as "line N: excerpt". */
export function foreignCommands(text: string): string[] {
  const found: { at: number; why: string }[] = [];
  for (const m of text.matchAll(/\bnpx\b/g)) {
    // TOML writes the arguments apart: command = "npx" then args = [...].
    const args = /^\\?["']?\s*(?:args\s*=\s*\[)?/.exec(text.slice(m.index + 3))![0].length;
    const [flag, name] = tokensAfter(text, m.index + 3 + args, 2);
    if (flag !== "--no-install" || name !== "rye-build") found.push({ at: m.index, why: "npx may download another package" });
  }
  // A list or a setting whose command is the bare name `rye`.
  for (const m of text.matchAll(/[[{]\s*["']rye["']\s*,\s*["'](?:lsp|--)|\b(?:command|cmd)\s*=\s*["']rye["']/g)) found.push({ at: m.index, why: "runs whatever `rye` is on PATH" });
  // A shell line that runs `rye …` (the CLI by its short name) for a server.
  for (const m of text.matchAll(/^\s*(?:exec\s+)?rye\s+lsp\b/gm)) found.push({ at: m.index, why: "runs whatever `rye` is on PATH" });
  return found.map(({ at, why }) => `line ${text.slice(0, at).split("\n").length}: ${why}: ${text.slice(at, at + 50).split("\n")[0]}`);
}

/**
 * The parts of a file that are commands, everything else blanked (newlines kept, so line numbers
 * hold): in markdown the code blocks and `code spans`, in code the lines that are not comments.
 * Prose may say what npx does; only what a reader copies or a config runs is checked.
 */
export function commandText(file: string, text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, " ");
  if (file.endsWith(".md")) {
    return text
      .split(/(^```[^\n]*\n[\s\S]*?^```$)/m)
      .map((part, i) => (i % 2 === 1 ? part : part.split(/(`[^`\n]+`)/).map((p, j) => (j % 2 === 1 ? p : blank(p))).join("")))
      .join("");
  }
  return text.replace(/^\s*(--|#|\/\/|\*|\/\*).*$/gm, blank);
}
