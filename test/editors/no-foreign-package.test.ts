// No documented editor command can run a different package than the project's own rye-build: the
// first editor configs ran `npx rye lsp`, which fetched an unrelated npm package called `rye`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { commandText, foreignCommands } from "./foreign-package.js";
import { REPO } from "./project.js";

// The checker itself, on commands written the ways each editor's config can write them.
const FOREIGN = [
  "npx rye lsp --stdio",
  "npx rye-build lsp --stdio", // installs from the registry when missing
  "npx -y rye-build lsp",
  "npx --yes rye-build lsp",
  "npx --no-install rye lsp --stdio",
  'cmd = { "npx", "rye", "lsp", "--stdio" }',
  'cmd = { "npx", "rye-build", "lsp", "--stdio" }',
  'command = "npx"\nargs = ["rye", "lsp", "--stdio"]',
  '"default": ["npx", "rye", "lsp", "--stdio"]',
  'cmd = { "rye", "lsp", "--stdio" }',
  'command = "rye"\nargs = ["lsp", "--stdio"]',
  '["rye", "lsp", "--stdio"]',
  "exec rye lsp --stdio",
  "  rye lsp --stdio",
  "npm exec -- npx rye",
];
const OWN = [
  "npx --no-install rye-build lsp --stdio",
  'cmd = { "npx", "--no-install", "rye-build", "lsp", "--stdio" }',
  'command = "npx"\nargs = ["--no-install", "rye-build", "lsp", "--stdio"]',
  '["npx", "--no-install", "rye-build", "lsp", "--stdio"]',
  'cmd = { bin, "lsp", "--stdio" }',
  'command = "node_modules/.bin/rye-build"',
  'vim.lsp.config("rye", {',
  'language-servers = ["marksman", "rye"]',
  '"keywords": ["rye", "directives"]',
  'exec "$d/node_modules/.bin/rye-build" lsp --stdio',
  "Start `rye-build lsp --stdio` from the project.",
];

describe("the foreign-command check", () => {
  test.each(FOREIGN)("flags %j", (text) => expect(foreignCommands(text)).not.toEqual([]));
  test.each(OWN)("accepts %j", (text) => expect(foreignCommands(text)).toEqual([]));
});

/** docs/editors.md and every text file of editors/ (not installed or built files). */
function editorFiles(): string[] {
  const files = [join(REPO, "docs/editors.md")];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (["node_modules", "dist", "package-lock.json"].includes(name) || /\.(png|vsix)$/.test(name)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(join(REPO, "editors"));
  return files;
}

describe("what counts as a command", () => {
  test("markdown: code blocks and code spans, not prose", () => {
    const md = "npx downloads it.\n\n```sh\nnpx rye lsp\n```\n\nRun `npx rye lsp`, not npx rye.\n";
    expect(foreignCommands(commandText("a.md", md)).map((l) => l.split(":")[0])).toEqual(["line 4", "line 7"]);
  });
  test("code: lines that are not comments", () => {
    const lua = '-- never npx rye\nlocal cmd = { "npx", "rye" } -- npx\n# npx rye\n// npx rye\n';
    expect(foreignCommands(commandText("a.lua", lua)).map((l) => l.split(":")[0])).toEqual(["line 2", "line 2"]);
  });
});

describe("editor configs and docs/editors.md", () => {
  const files = editorFiles().map((f) => relative(REPO, f));
  test("include every editor's config", () => {
    expect(files).toEqual(expect.arrayContaining(["docs/editors.md", "editors/nvim/rye.lua", "editors/nvim/rye-0.11.lua", "editors/helix/languages.toml", "editors/vscode/package.json", "editors/vscode/src/extension.js", "editors/vscode/src/resolve-server.js"]));
  });
  test.each(files)("%s starts no command that could run another package", (file) => {
    expect(foreignCommands(commandText(file, readFileSync(join(REPO, file), "utf8")))).toEqual([]);
  });
});
