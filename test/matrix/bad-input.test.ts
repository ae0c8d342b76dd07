import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";
import type { Io } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { cannotRunAsNobody, isRoot, NOBODY } from "../helpers/as-nobody.js";

// The bad-input matrix: each row is a project tree (written at test time, because symlinks,
// permissions, NUL bytes, CR line endings and 10 MB files do not survive a repository well), the
// exact diagnostics `rye build` must report (code, file, line, column — no more, no fewer), and
// the exit code. Rows whose input is legal (reserved-word input names, injection-looking text)
// must compile, and their rendered output must be exactly the text that was written.
// Every row also checks that a failing build leaves the previous out/ untouched.

const USER = mkdtempSync(join(tmpdir(), "rye-user-"));
const BIN = fileURLToPath(new URL("../../bin/rye.js", import.meta.url));

type Tree = Record<string, string | Buffer | { symlink: string } | { dir: true } | { mode: number; text?: string }>;

interface Row {
  name: string;
  tree: Tree | ((root: string) => Tree);
  /** `code path:line:col` for every diagnostic of severity error or warning. */
  expected: string[];
  exit: 0 | 1;
  env?: NodeJS.ProcessEnv;
  /** For rows that compile: directive id → inputs → expected rendered body. */
  renders?: { id: string; inputs: Record<string, unknown>; body: string }[];
  skip?: string;
  /** Needs a user that file modes apply to. */
  permissions?: boolean;
  /** Substring the first diagnostic's message must contain. */
  message?: string;
}

const directive = (body: string, opts: { inputs?: string; name?: string; attrs?: string; meta?: string } = {}) =>
  `# T

\`\`\`xml
<directive name="${opts.name ?? "t"}" version="1.0.0"${opts.attrs ?? ""}>
  <metadata><description>d</description>${opts.meta ?? ""}</metadata>
  <inputs>${opts.inputs ?? '<input name="x" type="string" required="true">X</input>'}</inputs>
</directive>
\`\`\`

${body}
`;

const INJECTION = "*/ `tick` ${x} ${ \u2028 \u2029 </script><script>alert(1)</script> \\u0041 \\ \" ' <!-- -->";

const chain = (n: number): Tree => {
  const tree: Tree = {};
  for (let i = 0; i < n; i++) {
    tree[`.ai/directives/c${i}.md`] = directive("{input:x}", { name: `c${i}`, attrs: i + 1 < n ? ` extends="c${i + 1}"` : "" });
  }
  return tree;
};

const ROWS: Row[] = [
  { name: "bare & in XML", tree: { ".ai/directives/t.md": directive("{input:x}").replace("<description>d", "<description>a & b") }, expected: ["RYE1002 .ai/directives/t.md:5:28"], exit: 1 },
  { name: "unterminated fence", tree: { ".ai/directives/t.md": "# T\n\n```xml\n<directive name=\"t\"/>\n\nBody.\n" }, expected: ["RYE1001 .ai/directives/t.md:3:1"], exit: 1, message: "never closed" },
  {
    name: "fence inside a four-backtick block",
    tree: { ".ai/directives/t.md": "# T\n\n````md\n```xml\n<directive name=\"t\"/>\n```\n````\n\nBody.\n" },
    expected: ["RYE1001 .ai/directives/t.md:4:1"],
    exit: 1,
    message: "four backticks on line 3",
  },
  { name: "BOM before a fence on line 1", tree: { ".ai/directives/t.md": "\ufeff```xml\n<directive name=\"t\" version=\"1\"/>\n```\nBody\n" }, expected: ["RYE1001 .ai/directives/t.md:1:1"], exit: 1, message: "byte-order mark" },
  {
    name: "BOM before a heading: kept, as the original keeps it",
    tree: { ".ai/directives/t.md": `\ufeff${directive("Hi {input:x}.")}` },
    expected: [],
    exit: 0,
    renders: [{ id: "t", inputs: { x: "Ada" }, body: "Hi Ada." }],
  },
  { name: "CRLF line endings", tree: { ".ai/directives/t.md": directive("Use {input:x} and\n  {input:y}.").replace(/\n/g, "\r\n") }, expected: ["RYE2001 .ai/directives/t.md:11:3"], exit: 1 },
  { name: "CR line endings", tree: { ".ai/directives/t.md": directive("Use {input:x} and\n  {input:y}.").replace(/\n/g, "\r") }, expected: ["RYE2001 .ai/directives/t.md:11:3"], exit: 1 },
  { name: "NUL byte", tree: { ".ai/directives/t.md": Buffer.from(directive("Use {input:x}\n  a\0b")) }, expected: ["RYE1003 .ai/directives/t.md:11:4"], exit: 1, message: "NUL" },
  { name: "binary file", tree: { ".ai/directives/t.md": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xd8]) }, expected: ["RYE1003 .ai/directives/t.md:1:1"], exit: 1 },
  { name: "10 MB directive", tree: { ".ai/directives/t.md": directive(`{input:x} ${"lorem ipsum ".repeat(900_000)}`) }, expected: ["RYE1005 .ai/directives/t.md:1:1"], exit: 1 },
  { name: "size cap from RYE_MAX_FILE_SIZE", tree: { ".ai/directives/t.md": directive("{input:x}") }, env: { RYE_MAX_FILE_SIZE: "100" }, expected: ["RYE1005 .ai/directives/previous.md:1:1", "RYE1005 .ai/directives/t.md:1:1"], exit: 1 },
  {
    name: "10k-deep XML nesting",
    tree: { ".ai/directives/t.md": directive("{input:x}", { meta: `<n>${"<a>".repeat(10_000)}${"</a>".repeat(10_000)}</n>` }) },
    // <directive> 1, <metadata> 2, <n> 3: the 254th <a> is element 257.
    expected: [`RYE1006 .ai/directives/t.md:5:${3 + "<metadata><description>d</description><n>".length + 253 * 3}`],
    exit: 1,
  },
  {
    name: "10k-deep braces in the body: text, rendered as written",
    tree: { ".ai/directives/t.md": directive(`{input:x} ${"{".repeat(10_000)}${"}".repeat(10_000)}`) },
    expected: [],
    exit: 0,
    renders: [{ id: "t", inputs: { x: "A" }, body: `A ${"{".repeat(10_000)}${"}".repeat(10_000)}` }],
  },
  {
    name: "duplicate inputs",
    tree: { ".ai/directives/t.md": directive("{input:x}", { inputs: '<input name="x" type="string" required="true">X</input><input name="x" type="string">Y</input>' }) },
    expected: ["RYE2005 .ai/directives/t.md:6:73"],
    exit: 1,
  },
  {
    name: "input names that are TS reserved words or not ASCII",
    tree: {
      ".ai/directives/t.md": directive("{input:class} {input:ünïcode} {input:constructor} {input:__proto__}", {
        inputs: ["class", "ünïcode", "constructor", "__proto__"].map((n) => `<input name="${n}" type="string" required="true">X</input>`).join(""),
      }),
    },
    expected: [],
    exit: 0,
    renders: [{ id: "t", inputs: { class: "c", ünïcode: "u", constructor: "k", ["__proto__"]: "p" }, body: "c u k p" }],
  },
  {
    name: "an input name that is not an identifier",
    tree: { ".ai/directives/t.md": directive("{input:my-input}", { inputs: '<input name="my-input" type="string" required="true">X</input>' }) },
    expected: ["RYE2006 .ai/directives/t.md:6:18", "RYE2002 .ai/directives/t.md:6:18", "RYE2011 .ai/directives/t.md:10:1"],
    exit: 1,
  },
  {
    name: "*/, backticks, ${, U+2028, </script> in bodies, descriptions and defaults",
    tree: {
      ".ai/directives/t.md": directive(`{input:x} ${INJECTION} {input:y}`, {
        inputs: `<input name="x" type="string" required="true">${INJECTION.replace(/[<&]/g, (c) => (c === "<" ? "&lt;" : "&amp;"))}</input><input name="y" type="string" default="${INJECTION.replace(/[<&"]/g, (c) => ({ "<": "&lt;", "&": "&amp;", '"': "&quot;" })[c]!)}">Y</input>`,
      }).replace("<description>d", `<description>${INJECTION.replace(/[<&]/g, (c) => (c === "<" ? "&lt;" : "&amp;"))}`),
    },
    // `${x}` looks like a System 3 placeholder, which never runs in a body: a warning.
    expected: ["RYE2012 .ai/directives/t.md:10:21"],
    exit: 0,
    renders: [{ id: "t", inputs: { x: INJECTION }, body: `${INJECTION} ${INJECTION} ${INJECTION}` }],
  },
  { name: "item id '.' from a file named ..md", tree: { ".ai/directives/..md": directive("{input:x}") }, expected: ["RYE8003 .ai/directives/..md:1:1"], exit: 1 },
  { name: "item id with a backslash", tree: { ".ai/directives/a\\b.md": directive("{input:x}") }, expected: ["RYE8003 .ai/directives/a\\b.md:1:1"], exit: 1 },
  {
    name: "item ids with U+2028 in a folder name, or %, ? or # in a file name",
    tree: { ".ai/directives/a\u2028b/c.md": directive("{input:x}"), ".ai/directives/p%41x.md": directive("{input:x}"), ".ai/directives/q?r#s.md": directive("{input:x}") },
    expected: ["RYE8003 .ai/directives/a\u2028b/c.md:1:1", "RYE8003 .ai/directives/p%41x.md:1:1", "RYE8003 .ai/directives/q?r#s.md:1:1"],
    exit: 1,
  },
  { name: "extends with ..", tree: { ".ai/directives/t.md": directive("{input:x}", { attrs: ' extends="../../etc/passwd"' }) }, expected: ["RYE3004 .ai/directives/t.md:4:46"], exit: 1 },
  { name: "context item with an absolute path", tree: { ".ai/directives/t.md": directive("{input:x}", { meta: "<context><before>/etc/passwd</before></context>" }) }, expected: ["RYE3005 .ai/directives/t.md:5:58"], exit: 1 },
  {
    name: "symlink that escapes the project",
    tree: () => {
      const outside = mkdtempSync(join(tmpdir(), "rye-outside-"));
      writeFileSync(join(outside, "secret.md"), directive("{input:x}"));
      mkdirSync(join(outside, "dir"));
      return { ".ai/directives/t.md": directive("{input:x}"), ".ai/directives/leak.md": { symlink: join(outside, "secret.md") }, ".ai/directives/leakdir": { symlink: join(outside, "dir") } };
    },
    expected: ["RYE8001 .ai/directives/leak.md:1:1", "RYE8001 .ai/directives/leakdir:1:1"],
    exit: 1,
  },
  {
    name: "symlinks inside the project are followed; loops and dangling links are reported",
    tree: (root) => ({
      "shared/s.md": directive("{input:x}", { name: "s" }),
      ".ai/directives/s.md": { symlink: join(root, "shared/s.md") },
      ".ai/directives/sub/loop": { symlink: join(root, ".ai/directives") },
      ".ai/directives/dangling.md": { symlink: join(root, "nowhere.md") },
    }),
    expected: ["RYE8001 .ai/directives/dangling.md:1:1", "RYE8001 .ai/directives/sub/loop:1:1"],
    exit: 1,
  },
  {
    name: "two files for one item id",
    tree: { ".ai/directives/t.md": directive("{input:x}"), ".ai/knowledge/k.md": "```yaml\nname: k\n```\nBody", ".ai/knowledge/k.yaml": "name: k\n" },
    expected: ["RYE1004 .ai/knowledge/k.yaml:1:1"],
    exit: 1,
  },
  { name: "empty file", tree: { ".ai/directives/t.md": "" }, expected: ["RYE1001 .ai/directives/t.md:1:1"], exit: 1, message: "empty" },
  { name: "empty knowledge file", tree: { ".ai/directives/t.md": directive("{input:x}"), ".ai/knowledge/k.md": "" }, expected: ["RYE1001 .ai/knowledge/k.md:1:1"], exit: 1 },
  { name: "a directory named like a directive", tree: { ".ai/directives/t.md": directive("{input:x}"), ".ai/directives/x.md": { dir: true } }, expected: ["RYE8004 .ai/directives/x.md:1:1"], exit: 1 },
  {
    name: "unreadable file",
    tree: { ".ai/directives/t.md": directive("{input:x}"), ".ai/directives/locked.md": { mode: 0o000, text: directive("{input:x}") } },
    expected: ["RYE8002 .ai/directives/locked.md:1:1"],
    exit: 1,
    permissions: true,
  },
  {
    name: "unreadable directory",
    tree: { ".ai/directives/t.md": directive("{input:x}"), ".ai/directives/locked/a.md": directive("{input:x}"), ".ai/directives/locked": { mode: 0o000 } },
    expected: ["RYE8002 .ai/directives/locked:1:1"],
    exit: 1,
    permissions: true,
  },
  { name: "extends chain longer than 64", tree: chain(70), expected: Array.from({ length: 6 }, (_, i) => `RYE1007 .ai/directives/c${i}.md:4:47`), exit: 1 },
  { name: "out/ is a file", tree: { ".ai/directives/t.md": directive("{input:x}"), out: "not a directory" }, expected: ["RYE8005 out:1:1"], exit: 1 },
];

function capture() {
  let text = "";
  return { stream: { write: (s: string) => ((text += s), true), isTTY: false } as unknown as Io["stdout"], text: () => text };
}

async function build(dir: string, env: NodeJS.ProcessEnv = {}) {
  const out = capture();
  const err = capture();
  const code = await main(["build", "--project", dir, "--json", "--allow-unsigned"], { stdout: out.stream, stderr: err.stream, cwd: dir, env: { USER_SPACE: USER, ...env } });
  return { code, report: JSON.parse(out.text()) as { diagnostics: { code: string; severity: string; message: string; loc?: { source: string; start: { line: number; column: number } } }[] } };
}

function materialise(dir: string, tree: Tree): void {
  const modes: [string, number][] = [];
  for (const [rel, entry] of Object.entries(tree)) {
    const path = join(dir, rel);
    mkdirSync(join(path, ".."), { recursive: true });
    if (typeof entry === "string" || Buffer.isBuffer(entry)) writeFileSync(path, entry);
    else if ("symlink" in entry) symlinkSync(entry.symlink, path);
    else if ("dir" in entry) mkdirSync(path, { recursive: true });
    else {
      if (entry.text !== undefined) writeFileSync(path, entry.text);
      modes.push([path, entry.mode]);
    }
  }
  for (const [path, mode] of modes) chmodSync(path, mode);
}

/** `rye build --json` in a separate process as an unprivileged user (for permission rows under root). */
function buildAsNobody(dir: string) {
  chmodSync(dir, 0o777);
  const r = spawnSync(process.execPath, [BIN, "build", "--project", dir, "--json", "--allow-unsigned"], { cwd: dir, uid: NOBODY, gid: NOBODY, encoding: "utf8", env: { PATH: process.env.PATH, USER_SPACE: dir } });
  return { code: r.status, report: JSON.parse(r.stdout) as Awaited<ReturnType<typeof build>>["report"] };
}

/** A project with a good build already in out/, so a failing row can show it was left alone. */
function projectWithPreviousOutput(): string {
  return mkdtempSync(join(tmpdir(), "rye-matrix-"));
}

describe("bad-input matrix", () => {
  for (const row of ROWS) {
    // Under root, a permission row runs the CLI as nobody (see as-nobody.ts).
    const skip = row.skip ?? (row.permissions && isRoot ? cannotRunAsNobody(BIN) : null);
    test.skipIf(Boolean(skip))(`${row.name}${skip ? ` (skipped: ${skip})` : ""}`, async () => {
      const dir = projectWithPreviousOutput();
      const asNobody = Boolean(row.permissions) && isRoot;
      const hasOutFile = asNobody || (typeof row.tree === "object" && "out" in row.tree);
      if (!hasOutFile) {
        materialise(dir, { ".ai/directives/previous.md": directive("Previous {input:x}.", { name: "previous" }) });
        expect((await build(dir)).code).toBe(0);
      }
      const before = hasOutFile ? null : readFileSync(join(dir, "out", "index.js"), "utf8");
      materialise(dir, typeof row.tree === "function" ? row.tree(dir) : row.tree);
      const { code, report } = asNobody ? buildAsNobody(dir) : await build(dir, row.env);
      const actual = report.diagnostics
        // These projects hold no knowledge, so every build warns that the built-in hook's item is missing (RYE3008, its own fixture).
        .filter((d) => d.severity !== "info" && d.code !== "RYE3008")
        .map((d) => (d.loc ? `${d.code} ${d.loc.source}:${d.loc.start.line}:${d.loc.start.column}` : d.code));
      expect(actual).toEqual(row.expected);
      expect(code).toBe(row.exit);
      if (row.message) expect(report.diagnostics[0]!.message).toContain(row.message);
      if (row.exit === 1 && before !== null) expect(readFileSync(join(dir, "out", "index.js"), "utf8")).toBe(before);
      for (const r of row.renders ?? []) {
        const mod = await import(`${pathToFileURL(join(dir, "out", "directives", `${r.id}.js`)).href}?${Date.now()}`);
        expect(mod.render(r.inputs).body).toBe(r.body);
      }
    });
  }
});
