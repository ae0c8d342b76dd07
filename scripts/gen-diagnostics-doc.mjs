// Writes docs/diagnostics.md from the diagnostic fixtures and the explanations in
// docs/diagnostics/entries.mjs: each failing example is compiled and its diagnostics printed as
// `rye build` prints them, and each fix is applied to the fixture. Run after `npm run build`:
//   node scripts/gen-diagnostics-doc.mjs           write the document
//   node scripts/gen-diagnostics-doc.mjs --check   exit 1 if the document is not what it would write
// It names every code that has no entry yet (and writes a placeholder section for it).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ENTRIES, INTRO } from "../docs/diagnostics/entries.mjs";

const REPO = fileURLToPath(new URL("../", import.meta.url));
export const DOC_PATH = join(REPO, "docs", "diagnostics.md");
const DIAGNOSTICS = join(REPO, "test", "fixtures", "diagnostics");
const TOOLS = join(REPO, "test", "fixtures", "tools");

// The knowledge item the built-in instruction hook injects, as a system space holds it: every
// example has it, except the one about its absence.
const INSTRUCTION = {
  kind: "knowledge",
  id: "rye/agent/core/DirectiveInstruction",
  path: "/system/.ai/knowledge/rye/agent/core/DirectiveInstruction.md",
  space: "system:9",
  text: "```yaml\nname: DirectiveInstruction\n```\n\nFollow the directive.\n",
};
export const INSTRUCTION_CODE = "RYE3008";

const walk = (root) =>
  readdirSync(root, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(root, e.name)) : [join(root, e.name)])).sort();

/** A single-file fixture as the project file `rye build` would read. */
function fixtureFile(name) {
  const kind = name.endsWith("_knowledge") ? "knowledge" : "directive";
  const text = readFileSync(join(DIAGNOSTICS, `${name}.md`), "utf8");
  return [{ kind, id: `fixtures/${name}`, path: `.ai/${kind === "directive" ? "directives" : "knowledge"}/fixtures/${name}.md`, text }];
}

/** A project fixture of test/fixtures/diagnostics/, read as the fixture test reads it; system files shown under `system/`. */
function projectFiles(api, name) {
  const root = join(DIAGNOSTICS, name);
  const systems = existsSync(join(root, "system")) ? [join(root, "system")] : [];
  const { sources, hookConfig } = api.readSpaces({ project: join(root, "project"), user: join(root, "project"), systems });
  const shown = (p) => (p.startsWith(root) ? relative(root, p).split("\\").join("/") : p);
  return { sources: sources.map((s) => ({ ...s, path: shown(s.path) })), hookConfig };
}

/** A tool fixture of test/fixtures/tools/: `<space>/<tool id>.<ext>`, as its test reads it. */
function toolFiles(name) {
  const spaces = { project: "project", user: "user", system: "system:0" };
  const sources = [];
  for (const [folder, space] of Object.entries(spaces)) {
    const root = join(TOOLS, name, folder);
    if (!existsSync(root)) continue;
    for (const file of walk(root)) {
      const ext = extname(file);
      const id = relative(root, file).split("\\").join("/").slice(0, -ext.length);
      sources.push({ kind: "tool", id, ext, space, path: `${space === "project" ? "" : `${folder}/`}.ai/tools/${id}${ext}`, text: readFileSync(file, "utf8") });
    }
  }
  return sources;
}

/** The failing sources of an entry whose example is a fixture, or null for an example shown as text. */
function failingOf(api, code, example) {
  let sources;
  let hookConfig = null;
  if (example.fixture) sources = fixtureFile(example.fixture);
  else if (example.project) ({ sources, hookConfig } = projectFiles(api, example.project));
  else if (example.tools) sources = toolFiles(example.tools);
  else return null;
  return { sources: code === INSTRUCTION_CODE ? sources : [...sources, INSTRUCTION], hookConfig };
}

/** Applies an entry's fix: `{ file?, from, to }` replaces text (every `from` must be there), `{ file, text }` adds or replaces a file. */
function applyFix(code, failing, fix) {
  const sources = failing.sources.map((s) => ({ ...s }));
  for (const edit of fix) {
    const file = edit.file ?? sources[0].path;
    let src = sources.find((s) => s.path === file);
    if (edit.text !== undefined) {
      if (src) src.text = edit.text;
      else sources.push({ ...edit.source, path: file, text: edit.text });
      continue;
    }
    if (!src) throw new Error(`${code}: the fix edits '${file}', which the example does not have`);
    const found = edit.from instanceof RegExp ? edit.from.test(src.text) : src.text.includes(edit.from);
    if (!found) throw new Error(`${code}: the fix replaces ${JSON.stringify(edit.from)}, which '${file}' no longer contains`);
    src.text = src.text.replace(edit.from, edit.to);
  }
  return { ...failing, sources };
}

/** Every entry's example as build inputs: what the test compiles, and what the document shows. */
export function examples(api) {
  const out = [];
  for (const [code, entry] of Object.entries(ENTRIES)) {
    const failing = failingOf(api, code, entry.example);
    if (!failing) {
      out.push({ code, entry, failing: null, fixed: null });
      continue;
    }
    out.push({ code, entry, failing, fixed: applyFix(code, failing, entry.fix ?? []) });
  }
  return out;
}

const compile = (api, input) => api.build(input.sources, "docs", { hookConfig: input.hookConfig }).diagnostics;

/** A fence longer than any run of backticks in the text, so no line of it can close the block. */
function fenced(lang, text) {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${text.endsWith("\n") ? text : `${text}\n`}${fence}\n`;
}

const langOf = (path) => ({ ".md": "markdown", ".py": "python", ".yaml": "yaml", ".yml": "yaml", ".json": "json", ".toml": "toml" })[extname(path)] ?? "text";

/** Changed lines of `after` against `before` with one line of context, as a `diff` block body. */
export function lineDiff(before, after) {
  const a = before.replace(/\n$/, "").split("\n");
  const b = after.replace(/\n$/, "").split("\n");
  const lcs = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const rows = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) rows.push([" ", a[i++], j++]);
    else if (i < a.length && (j >= b.length || lcs[i + 1][j] >= lcs[i][j + 1])) rows.push(["-", a[i++]]);
    else rows.push(["+", b[j++]]);
  }
  const near = (k) => rows.slice(Math.max(0, k - 1), k + 2).some((r) => r[0] !== " ");
  const out = [];
  let skipped = false;
  rows.forEach((r, k) => {
    if (r[0] !== " " || near(k)) {
      if (skipped && out.length > 0) out.push(" …");
      skipped = false;
      out.push(`${r[0]}${r[1]}`);
    } else skipped = true;
  });
  return `${out.join("\n")}\n`;
}

function printed(api, code, input) {
  const sources = new Map(input.sources.map((s) => [s.path, s.text]));
  const shown = compile(api, input).filter((d) => d.code === code);
  if (shown.length === 0) throw new Error(`${code}: its example no longer produces it`);
  return { diagnostics: shown, text: shown.map((d) => api.formatDiagnostic(d, { color: false, sources })).join("\n") };
}

/** The section of one code whose example compiles. */
function builtSection(api, ex) {
  const { code, entry, failing, fixed } = ex;
  const { diagnostics, text } = printed(api, code, failing);
  const files = entry.example.show ?? [...new Set(diagnostics.map((d) => d.loc?.source).filter((p) => p && p !== INSTRUCTION.path))];
  const byPath = new Map(failing.sources.map((s) => [s.path, s]));
  const parts = [];
  // Failing examples carry `diagnostic=CODE` in their info string, so tests of docs/ code blocks can tell them apart.
  const block = (f) => fenced(`${langOf(f)} diagnostic=${code}`, byPath.get(f).text);
  if (files.length === 0) parts.push(`A project whose only item is \`${failing.sources[0].path}\`:\n\n${block(failing.sources[0].path)}`);
  for (const f of files) parts.push(`\`${f}\`:\n\n${block(f)}`);
  parts.push(`\`rye build\` prints:\n\n${fenced("text", text)}`);
  parts.push(`**Fix.** ${entry.fix_prose}\n`);
  for (const edit of new Set((entry.fix ?? []).map((e) => e.file ?? failing.sources[0].path))) {
    const before = byPath.get(edit);
    const after = fixed.sources.find((s) => s.path === edit);
    parts.push(before ? `\`${edit}\`:\n\n${fenced("diff", lineDiff(before.text, after.text))}` : `New file \`${edit}\`:\n\n${fenced(langOf(edit), after.text)}`);
  }
  const source = entry.example.fixture ? `diagnostics/${entry.example.fixture}.md` : entry.example.project ? `diagnostics/${entry.example.project}/` : `tools/${entry.example.tools}/`;
  parts.push(`_The example is test/fixtures/${source}; the documentation test compiles it and the fixed version, which no longer reports ${code}._\n`);
  return parts.join("\n");
}

/** The section of one code shown as text, with the test suite that checks it. */
function textSection(ex) {
  const { code, entry } = ex;
  const e = entry.example;
  const parts = [];
  for (const f of e.files ?? []) parts.push(`\`${f.path}\`${f.note ? ` (${f.note})` : ""}:\n\n${fenced(`${f.lang ?? langOf(f.path)} diagnostic=${code}`, f.text)}`);
  if (e.setup) parts.push(`${e.setup}\n`);
  parts.push(`\`${e.command ?? "rye build"}\` prints:\n\n${fenced("text", e.output)}`);
  parts.push(`**Fix.** ${entry.fix_prose}\n`);
  for (const f of entry.fix_files ?? []) parts.push(`\`${f.path}\`:\n\n${fenced(f.lang ?? langOf(f.path), f.text)}`);
  parts.push(`_This needs ${e.needs}, so the example is shown as text; ${e.checked_by} checks this code, its line and its column._\n`);
  return parts.join("\n");
}

const sortCodes = (codes) => [...codes].sort((a, b) => a.localeCompare(b));
const LEVEL = { error: "error", warning: "warning", info: "info" };

/** The whole document, and the codes of CODES that have no entry. */
export function generate(api) {
  const codes = sortCodes(Object.keys(api.CODES));
  const missing = codes.filter((c) => !ENTRIES[c]);
  const built = new Map(examples(api).map((ex) => [ex.code, ex]));
  const rows = codes.map((c) => `| [${c}](#${c.toLowerCase()}) | ${api.CODES[c][0]} | ${ENTRIES[c]?.summary ?? api.CODES[c][1]} |`);
  const sections = codes.map((c) => {
    const [severity] = api.CODES[c];
    const ex = built.get(c);
    if (!ex) return `## ${c}\n\n**${LEVEL[severity]}** — ${api.CODES[c][1]}\n\n_Not explained yet: docs/diagnostics/entries.mjs has no entry for ${c}._\n`;
    const head = `## ${c}\n\n**${LEVEL[severity]}** — ${ex.entry.summary}\n\n${ex.entry.explain.trim()}\n`;
    return `${head}\n${ex.failing ? builtSection(api, ex) : textSection(ex)}`;
  });
  const text = `${INTRO.trim()}\n\n| code | severity | what it means |\n|---|---|---|\n${rows.join("\n")}\n\n${sections.join("\n")}`;
  const extra = Object.keys(ENTRIES).filter((c) => !api.CODES[c]);
  return { text, missing, extra };
}

async function main() {
  const dist = (p) => import(pathToFileURL(join(REPO, "dist", p)).href);
  const [{ build, formatDiagnostic }, { CODES }, { readSpaces }] = await Promise.all([dist("index.js"), dist("diagnostics/codes.js"), dist("project/read-spaces.js")]);
  const { text, missing, extra } = generate({ build, formatDiagnostic, CODES, readSpaces });
  if (missing.length) console.error(`No entry in docs/diagnostics/entries.mjs for: ${missing.join(", ")} (each gets a placeholder section until it has one).`);
  if (extra.length) console.error(`Entries for codes that no longer exist: ${extra.join(", ")}.`);
  if (process.argv.includes("--check")) {
    const current = existsSync(DOC_PATH) ? readFileSync(DOC_PATH, "utf8") : "";
    if (current !== text) {
      console.error("docs/diagnostics.md is out of date: run node scripts/gen-diagnostics-doc.mjs");
      process.exitCode = 1;
    }
  } else writeFileSync(DOC_PATH, text);
  if (missing.length || extra.length) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
