// Writes docs/diagnostics.md from the diagnostic fixtures and the explanations in
// docs/diagnostics/entries.mjs. Each failing example is run — compiled with build(), or, for what
// only a project on disk shows, `rye build` run on it in a temporary folder — and its diagnostics
// printed as `rye build` prints them; each fix is applied and must clear the code (the docs test
// checks that). Run after `npm run build`:
//   node scripts/gen-diagnostics-doc.mjs           write the document
//   node scripts/gen-diagnostics-doc.mjs --check   exit 1 if the document is not what it would write
// It names every code that has no entry yet (and writes a placeholder section for it).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, extname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ENTRIES, INTRO } from "../docs/diagnostics/entries.mjs";

const REPO = fileURLToPath(new URL("../", import.meta.url));
export const DOC_PATH = join(REPO, "docs", "diagnostics.md");
const DIAGNOSTICS = join(REPO, "test", "fixtures", "diagnostics");
const TOOLS = join(REPO, "test", "fixtures", "tools");
/** Where a project run by the script is said to be, in place of its temporary folder. */
const SHOWN_ROOT = "/home/me/app";

// The knowledge item the built-in instruction hook injects, as a system space holds it: every
// example has it, except the one about its absence.
const INSTRUCTION_ID = "rye/agent/core/DirectiveInstruction";
const INSTRUCTION_TEXT = "```yaml\nname: DirectiveInstruction\n```\n\nFollow the directive.\n";
const INSTRUCTION = { kind: "knowledge", id: INSTRUCTION_ID, path: `/system/.ai/knowledge/${INSTRUCTION_ID}.md`, space: "system:9", text: INSTRUCTION_TEXT };
const INSTRUCTION_CODE = "RYE3008";

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

/**
 * An entry's failing example as something to run: `build` (sources for build()), `cli` (files
 * written to a folder, then `rye <args>` run there), `config` or `agents` (one file read by the
 * config or agents reader). Null for an example shown as text only.
 */
function failingOf(api, code, example) {
  const instruction = code === INSTRUCTION_CODE ? [] : [INSTRUCTION];
  if (example.fixture) return { runner: "build", sources: [...fixtureFile(example.fixture), ...instruction], hookConfig: null };
  if (example.project) {
    const { sources, hookConfig } = projectFiles(api, example.project);
    return { runner: "build", sources: [...sources, ...instruction], hookConfig };
  }
  if (example.tools) return { runner: "build", sources: [...toolFiles(example.tools), ...instruction], hookConfig: null };
  if (example.cli) {
    const { files, args, env = {}, trust = false } = example.cli;
    return { runner: "cli", sources: files.map((f) => signed(api, f)), args, env, trust };
  }
  if (example.config) return { runner: "config", sources: [{ ...example.config }] };
  if (example.agents) return { runner: "agents", sources: [{ ...example.agents }] };
  return null;
}

// Two fixed Ed25519 keys (seeds 0..31 and 32..63), so signed examples print the same every time:
// `trusted` is what a `trust: true` example puts in the user space's trusted keys, `other` is not.
const seed = (from) => Uint8Array.from({ length: 32 }, (_, i) => from + i);
const keys = (api) => ({ trusted: api.signingKeyFrom(seed(0)), other: api.signingKeyFrom(seed(32)) });
const SIGNED_AT = "2026-01-01T00:00:00Z";

/**
 * A file of a cli example with `sign` ("trusted" or "other") signed by that key, then `after`
 * ({ from, to }) applied to the signed text, or its signature altered when `forge` is set.
 */
function signed(api, file) {
  const { sign, after, forge, ...rest } = file;
  if (!sign) return rest;
  const name = rest.path.slice(rest.path.lastIndexOf("/") + 1);
  let text = api.signItem(rest.text, "directive", keys(api)[sign], SIGNED_AT, name);
  if (after) text = text.replace(after.from, after.to);
  if (forge) text = text.replace(/:([A-Za-z0-9_-]{86}):/, (_, sig) => `:${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}:`);
  return { ...rest, text };
}

const without = (o, ...keys) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

/**
 * Applies an entry's fix: `{ file?, from, to }` replaces text (`from` must be there), `{ file, text,
 * source? }` adds or replaces a file, `{ file, remove: true }` deletes one, `{ args }` and `{ env }`
 * change how `rye` is run.
 */
function applyFix(api, code, failing, fix) {
  const fixed = { ...failing, sources: failing.sources.map((s) => ({ ...s })) };
  for (const edit of fix) {
    if (edit.args) fixed.args = edit.args;
    if (edit.env) fixed.env = { ...fixed.env, ...edit.env };
    if (edit.args || edit.env) continue;
    const file = edit.file ?? fixed.sources[0].path;
    const src = fixed.sources.find((s) => s.path === file);
    if (edit.remove) {
      if (!src) throw new Error(`${code}: the fix removes '${file}', which the example does not have`);
      fixed.sources = fixed.sources.filter((s) => s !== src);
    } else if (edit.text !== undefined) {
      // A new text replaces the file whole: no longer raw bytes, a link or a folder.
      const next = signed(api, { path: file, text: edit.text, sign: edit.sign });
      if (src) fixed.sources = fixed.sources.map((s) => (s === src ? { ...without(src, "latin1", "symlink", "dir"), text: next.text } : s));
      else fixed.sources.push({ ...edit.source, path: file, text: next.text });
    } else {
      if (!src) throw new Error(`${code}: the fix edits '${file}', which the example does not have`);
      const found = edit.from instanceof RegExp ? edit.from.test(src.text) : src.text.includes(edit.from);
      if (!found) throw new Error(`${code}: the fix replaces ${JSON.stringify(String(edit.from))}, which '${file}' no longer contains`);
      src.text = src.text.replace(edit.from, edit.to);
    }
  }
  return fixed;
}

/** Every entry's example as inputs to run: what the test runs, and what the document shows. */
export function examples(api) {
  return Object.entries(ENTRIES).map(([code, entry]) => {
    const failing = failingOf(api, code, entry.example);
    return { code, entry, failing, fixed: failing && applyFix(api, code, failing, entry.fix ?? []) };
  });
}

const INSTRUCTION_FILE = `.ai/knowledge/${INSTRUCTION_ID}.md`;

/** Writes a cli example's files into `root`: text, `latin1` text (raw bytes), `symlink`, or a `dir`. */
function writeTree(root, sources) {
  for (const s of [...sources, { path: INSTRUCTION_FILE, text: INSTRUCTION_TEXT }]) {
    const at = join(root, s.path);
    mkdirSync(dirname(at), { recursive: true });
    if (s.dir) mkdirSync(at, { recursive: true });
    else if (s.symlink) symlinkSync(s.symlink, at);
    else writeFileSync(at, s.latin1 ? Buffer.from(s.text, "latin1") : s.text);
  }
}

/** The diagnostics `rye` printed on stderr, each with its code frame: `{ code, severity, text }`. */
function printedBlocks(stderr) {
  const header = /^(?:(\S.*):\d+:\d+ - )?(error|warning|info) (RYE\d{4}): /;
  const blocks = [];
  for (const line of stderr.split("\n")) {
    const m = header.exec(line);
    if (m) blocks.push({ source: m[1], severity: m[2], code: m[3], lines: [line] });
    else if (/^Found \d+ error/.test(line) || /^warning: /.test(line)) blocks.push(null);
    else if (blocks.at(-1)) blocks.at(-1).lines.push(line);
  }
  return blocks.filter(Boolean).map((b) => ({ code: b.code, severity: b.severity, source: b.source, text: `${b.lines.join("\n").trimEnd()}\n` }));
}

/** Runs `rye <args>` (output unsigned) on the example's files in a fresh folder with an empty user space. */
async function runCli(api, input) {
  const root = mkdtempSync(join(tmpdir(), "rye-doc-"));
  const user = mkdtempSync(join(tmpdir(), "rye-doc-user-"));
  try {
    writeTree(root, input.sources);
    if (input.trust) {
      const { trusted } = keys(api);
      mkdirSync(join(user, ".ai", "config", "keys", "trusted"), { recursive: true });
      writeFileSync(join(user, ".ai", "config", "keys", "trusted", `${trusted.fingerprint}.toml`), api.formatTrustedKeyToml(trusted.publicPem, { owner: "me" }));
    }
    let stderr = "";
    const quiet = { write: () => true, isTTY: false };
    const err = { write: (t) => ((stderr += t), true), isTTY: false };
    await api.main([...input.args, "--allow-unsigned"], { stdout: quiet, stderr: err, cwd: root, env: { USER_SPACE: user, ...input.env } });
    for (const r of new Set([realpathSync(root), root])) stderr = stderr.split(r).join(SHOWN_ROOT);
    // The instruction item stands in for a system space; what is said of it is not the example's.
    return printedBlocks(stderr).filter((b) => b.source !== INSTRUCTION_FILE);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(user, { recursive: true, force: true });
  }
}

/** What running an example reports: every diagnostic's code and severity, and each printed as `rye` prints it. */
export async function run(api, input) {
  if (input.runner === "cli") return runCli(api, input);
  const [file] = input.sources;
  const diagnostics =
    input.runner === "config" ? api.parseConfigText(file.text, file.path, null).diagnostics
    : input.runner === "agents" ? api.compileAgentConfig(file.text, file.path).diagnostics
    : api.build(input.sources, "docs", { hookConfig: input.hookConfig }).diagnostics;
  const sources = new Map(input.sources.map((s) => [s.path, s.text]));
  return diagnostics.map((d) => ({ code: d.code, severity: d.severity, source: d.loc?.source, text: api.formatDiagnostic(d, { color: false, sources }) }));
}

/** A fence longer than any run of backticks in the text, so no line of it can close the block. */
function fenced(lang, text) {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${lang}\n${text.endsWith("\n") ? text : `${text}\n`}${fence}\n`;
}

const langOf = (path) => ({ ".md": "markdown", ".py": "python", ".yaml": "yaml", ".yml": "yaml", ".json": "json", ".toml": "toml", ".ts": "typescript" })[extname(path)] ?? "text";

/** A file's text as shown: raw bytes that are not UTF-8 are written as `\xff`. */
const visibleText = (s) => (s.latin1 ? s.text.replace(/[\x80-\xff]/g, (c) => `\\x${c.charCodeAt(0).toString(16)}`) : s.text);

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

const shownCommand = (input) => `${Object.entries(input.env ?? {}).map(([k, v]) => `${k}=${v} `).join("")}rye ${input.args.join(" ")}`;

/** How a file of an example is shown: its text, or what stands in for bytes, links and folders. */
function fileBlock(code, s) {
  if (s.dir) return `\`${s.path}/\`: a folder.\n`;
  if (s.symlink) return `\`${s.path}\`: a symbolic link to \`${s.symlink}\`.\n`;
  const note = s.latin1 ? " (each `\\xNN` stands for one byte, which is not valid UTF-8 there)" : "";
  const text = visibleText(s);
  // Failing examples carry `diagnostic=CODE` in their info string, so tests of docs/ code blocks can tell them apart.
  return `\`${s.path}\`${note}:\n\n${fenced(`${langOf(s.path)} diagnostic=${code}`, text)}`;
}

/** How the documentation test runs an example and its fix. */
const CHECKED = {
  build: (e) => `compiles this example (test/fixtures/${e.fixture ? `diagnostics/${e.fixture}.md` : e.project ? `diagnostics/${e.project}/` : `tools/${e.tools}/`}) and its fix`,
  cli: () => "writes this example to a folder and runs `rye` there, then does the same with its fix",
  config: () => "reads this file as `rye` reads its configuration, then its fix",
  agents: () => "reads this file as `rye run` reads an agents file, then its fix",
};

/** The section of one code whose example is run. */
async function runSection(api, ex) {
  const { code, entry, failing, fixed } = ex;
  const shown = (await run(api, failing)).filter((d) => d.code === code);
  if (shown.length === 0) throw new Error(`${code}: its example no longer reports it`);
  const byPath = new Map(failing.sources.map((s) => [s.path, s]));
  const located = [...new Set(shown.map((d) => d.source).filter((p) => byPath.has(p) && p !== INSTRUCTION.path))];
  const all = failing.sources.filter((s) => s !== INSTRUCTION).map((s) => s.path);
  const files = entry.example.show ?? (failing.runner === "build" && located.length ? located : all);
  const parts = [];
  if (entry.example.setup) parts.push(`${entry.example.setup}\n`);
  for (const f of files) parts.push(fileBlock(code, byPath.get(f)));
  const command = failing.runner === "cli" ? shownCommand(failing) : failing.runner === "agents" ? "rye run … --agents .ai/config/agents.toml" : "rye build";
  parts.push(`\`${command}\` prints:\n\n${fenced("text", shown.map((d) => d.text.trimEnd()).join("\n\n"))}`);
  parts.push(`**Fix.** ${entry.fix_prose}\n`);
  for (const edit of entry.fix ?? []) {
    if (edit.args || edit.env) {
      parts.push(`\`${shownCommand(fixed)}\`\n`);
      continue;
    }
    const file = edit.file ?? failing.sources[0].path;
    const before = byPath.get(file);
    const after = fixed.sources.find((s) => s.path === file);
    if (edit.remove) parts.push(before?.dir ? `Remove the folder \`${file}/\`.\n` : `Remove \`${file}\`.\n`);
    else if (edit !== (entry.fix ?? []).find((e) => (e.file ?? failing.sources[0].path) === file && !e.remove)) continue;
    else if (before && typeof before.text === "string" && !before.dir && !before.symlink) {
      parts.push(`\`${file}\`${before.latin1 ? ", saved as UTF-8" : ""}:\n\n${fenced("diff", lineDiff(visibleText(before), after.text))}`);
    } else parts.push(`${before ? "" : "New file "}\`${file}\`:\n\n${fenced(langOf(file), after.text)}`);
  }
  parts.push(`_The documentation test ${CHECKED[failing.runner](entry.example)}: the example reports ${code}, the fix does not._\n`);
  return parts.join("\n");
}

/** The section of one code shown as text, with the test suite that checks it. */
function textSection(ex) {
  const { code, entry } = ex;
  const e = entry.example;
  const parts = [];
  if (e.setup) parts.push(`${e.setup}\n`);
  for (const f of e.files ?? []) parts.push(`\`${f.path}\`${f.note ? ` (${f.note})` : ""}:\n\n${fenced(`${f.lang ?? langOf(f.path)} diagnostic=${code}`, f.text)}`);
  parts.push(`\`${e.command ?? "rye build"}\` prints:\n\n${fenced("text", e.output)}`);
  parts.push(`**Fix.** ${entry.fix_prose}\n`);
  parts.push(`_This needs ${e.needs}, so the example is shown as text; ${e.checked_by} checks this code, its line and its column._\n`);
  return parts.join("\n");
}

/** The whole document, and the codes of CODES that have no entry (and entries whose code is gone). */
export async function generate(api) {
  const codes = Object.keys(api.CODES).sort();
  const missing = codes.filter((c) => !ENTRIES[c]);
  const extra = Object.keys(ENTRIES).filter((c) => !api.CODES[c]);
  const all = new Map(examples(api).map((ex) => [ex.code, ex]));
  const rows = codes.map((c) => `| [${c}](#${c.toLowerCase()}) | ${api.CODES[c][0]} | ${ENTRIES[c]?.summary ?? api.CODES[c][1]} |`);
  const sections = [];
  for (const c of codes) {
    const [severity, fallback] = api.CODES[c];
    const ex = all.get(c);
    if (!ex) {
      sections.push(`## ${c}\n\n**${severity}** — ${fallback}\n\n_Not explained yet: docs/diagnostics/entries.mjs has no entry for ${c}._\n`);
      continue;
    }
    const body = ex.failing ? await runSection(api, ex) : textSection(ex);
    sections.push(`## ${c}\n\n**${severity}** — ${ex.entry.summary}\n\n${ex.entry.explain.trim()}\n\n${body}`);
  }
  const text = `${INTRO.trim()}\n\n| code | severity | what it means |\n|---|---|---|\n${rows.join("\n")}\n\n${sections.join("\n")}`;
  return { text, missing, extra };
}

async function main() {
  const dist = (p) => import(pathToFileURL(join(REPO, "dist", p)).href);
  const [index, codes, spaces, config, agents, cli, sign] = await Promise.all(
    ["index.js", "diagnostics/codes.js", "project/read-spaces.js", "project/read-config.js", "agents/agent-config.js", "cli/main.js", "sign/index.js"].map(dist),
  );
  const { signItem, signingKeyFrom, formatTrustedKeyToml } = sign;
  const api = { ...index, CODES: codes.CODES, readSpaces: spaces.readSpaces, parseConfigText: config.parseConfigText, compileAgentConfig: agents.compileAgentConfig, main: cli.main, signItem, signingKeyFrom, formatTrustedKeyToml };
  const { text, missing, extra } = await generate(api);
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
