import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import type { Io } from "../../src/cli/io.js";
import { readProject } from "../../src/project/read-project.js";
import { compileToDir, importDirective } from "../helpers/compile.js";
import { runRyeProcess } from "../helpers/cli.js";

// Every file kind of a space, from a project fixture of our own: each file under directives/,
// knowledge/ and tools/ compiles, is skipped by a documented rule (RYE1012, info), or is reported
// as of no supported kind (RYE1011, see unknown-kinds.test.ts). Tools of each kind are run.
const FIXTURE = fileURLToPath(new URL("../fixtures/kinds/project/", import.meta.url));
const hasSh = spawnSync("sh", ["-c", "exit 0"]).status === 0;

/** Files no fixture should hold in git (installed packages, caches), written beside the fixture's own. */
const GENERATED: Record<string, string> = {
  ".ai/tools/kinds/node_modules/left-pad/index.js": "export const __executor_id__ = 'not/a/tool';\n",
  ".ai/tools/kinds/lib/__pycache__/format.cpython-312.pyc": "not bytecode\n",
  ".ai/tools/kinds/.venv/lib/site.py": "__version__ = '9'\n",
  ".ai/tools/kinds/target/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n",
  ".ai/tools/kinds/target/debug/build.rs": "fn main() {}\n",
};

function capture() {
  let text = "";
  return { stream: { write: (s: string) => ((text += s), true) } as unknown as Io["stdout"], text: () => text };
}

describe("file kinds of a project", () => {
  const dir = mkdtempSync(join(tmpdir(), "rye-kinds-"));
  // Outside the project: a key file in the checkout is no anchor, pinned or not.
  const user = mkdtempSync(join(tmpdir(), "rye-kinds-user-"));
  const env = { USER_SPACE: user, PATH: process.env.PATH, RYE_TRUSTED_KEYS: join(user, ".ai/config/keys/signing/public_key.pem") };
  const saved = process.env.RYE_TRUSTED_KEYS;
  const rye = async (...args: string[]) => {
    // `rye run tool` imports out/: a real process from dist/ (see runRyeProcess).
    if (args[0] === "run") {
      const r = runRyeProcess(args, dir, env);
      return { code: r.code, out: r.stdout, err: r.stderr };
    }
    const out = capture();
    const err = capture();
    const code = await main(args, { stdout: out.stream, stderr: err.stream, cwd: dir, env });
    return { code, out: out.text(), err: err.text() };
  };

  beforeAll(() => {
    cpSync(FIXTURE, dir, { recursive: true });
    for (const [path, text] of Object.entries(GENERATED)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env.RYE_TRUSTED_KEYS;
    else process.env.RYE_TRUSTED_KEYS = saved;
  });

  test("reading: every kind is read, every other file is skipped by a named rule, none in silence", () => {
    const { sources, diagnostics } = readProject(dir);
    expect(sources.map((s) => `${s.kind} ${s.id}${s.ext}`)).toEqual([
      "directive kinds/welcome.md",
      "knowledge kinds/checklist.md",
      "knowledge kinds/house_style.yaml",
      "knowledge kinds/signature.yml",
      "knowledge rye/agent/core/DirectiveInstruction.md",
      "tool kinds/greet.yaml",
      "tool kinds/greet_script.sh",
      "tool kinds/length.cjs",
      "tool kinds/lib/format.py",
      "tool kinds/lower.ts",
      "tool kinds/reverse.mjs",
      "tool kinds/upper.js",
      "tool kinds/wave.yml",
      "tool rye/core/primitives/subprocess.yaml",
      "tool rye/core/runtimes/node/node.yaml",
    ]);
    const skipped = diagnostics.map((d) => [d.code, d.severity, d.loc?.source, d.loc?.start.line, d.loc?.start.column]);
    expect(skipped.sort()).toEqual(
      [
        ".ai/tools/kinds/.gitkeep",
        ".ai/tools/kinds/.venv",
        ".ai/tools/kinds/lib/__pycache__",
        ".ai/tools/kinds/node_modules",
        ".ai/tools/kinds/package.json",
        ".ai/tools/kinds/settings.toml",
        ".ai/tools/kinds/target",
      ].map((source) => ["RYE1012", "info", source, 1, 1]),
    );
    const why = Object.fromEntries(diagnostics.map((d) => [d.loc!.source.slice(d.loc!.source.lastIndexOf("/") + 1), d.message]));
    expect(why["node_modules"]).toBe("Skipped: node_modules/ holds installed packages, not items.");
    expect(why["package.json"]).toMatch(/^Skipped: rye reads no metadata from \.json files/);
    expect(why["settings.toml"]).toMatch(/^Skipped: rye reads no metadata from \.toml files/);
    expect(why[".venv"]).toMatch(/hidden folder/);
    expect(why["target"]).toMatch(/CACHEDIR\.TAG/);
  });

  test("building: no errors or warnings; the helper and the .sh script are noted with --verbose only", async () => {
    const verbose = await rye("build", "--verbose");
    expect(verbose.code, verbose.err).toBe(0);
    expect(verbose.err).not.toMatch(/ - (error|warning) RYE/);
    expect(verbose.err).toMatch(/^\.ai\/tools\/kinds\/greet_script\.sh:1:1 - info RYE1012: Skipped: rye reads no metadata from \.sh files .*args: \["\{tool_dir\}\/<script>\.sh"\]\.$/m);
    expect(verbose.err).toMatch(/^\.ai\/tools\/kinds\/lib\/format\.py:1:1 - info RYE1012: Skipped: it declares no tool metadata/m);
    expect(verbose.err).toMatch(/^\.ai\/tools\/kinds\/node_modules:1:1 - info RYE1012/m);
    const quiet = await rye("build");
    expect(quiet.code, quiet.err).toBe(0);
    expect(quiet.err).not.toMatch(/RYE1012/);
    // Each tool of a kind with metadata has its module; the script, the helper and the primitive have none.
    for (const id of ["greet", "wave", "upper", "reverse", "length", "lower"]) expect(existsSync(join(dir, "out/tools/kinds", `${id}.js`)), id).toBe(true);
    for (const id of ["greet_script", "lib/format"]) expect(existsSync(join(dir, "out/tools/kinds", `${id}.js`)), id).toBe(false);
    for (const id of ["house_style", "signature", "checklist"]) expect(existsSync(join(dir, "out/knowledge/kinds", `${id}.js`)), id).toBe(true);
    process.env.RYE_TRUSTED_KEYS = env.RYE_TRUSTED_KEYS;
  }, 120_000);

  test.skipIf(!hasSh)("running: a .yaml tool and a .yml tool run the .sh script beside them", async () => {
    for (const [id, params] of [
      ["kinds/greet", { name: "Ada" }],
      ["kinds/wave", { who: "Ada" }],
    ] as const) {
      const r = await rye("run", "tool", id, "--params", JSON.stringify(params));
      expect(r.code, r.err + r.out).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ status: "success", item_id: id, data: { success: true, greeting: "Hello, Ada", via: "sh" } });
    }
  }, 60_000);

  test("running: .js, .mjs and .cjs tools run through their node runtime; the .ts tool's chain is planned the same way", async () => {
    for (const [id, data] of [
      ["kinds/upper", { upper: "SHOUT", via: "js" }],
      ["kinds/reverse", { reversed: "tuohs", via: "mjs" }],
      ["kinds/length", { length: 5, via: "cjs" }],
    ] as const) {
      const r = await rye("run", "tool", id, "--params", JSON.stringify({ text: "shout" }));
      expect(r.code, r.err + r.out).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ status: "success", item_id: id, data: { success: true, ...data } });
    }
    const ts = await import(join(dir, "out/tools/kinds/lower.js"));
    expect(ts.metadata).toMatchObject({ executor_id: "rye/core/runtimes/node/node", tool_type: "typescript", description: "Lower-cases a text" });
  }, 60_000);

  test("a .sh file is no tool of its own: asking to run it finds no module", async () => {
    const r = await rye("run", "tool", "kinds/greet_script");
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ status: "error", error: "Tool not found: kinds/greet_script" });
  });
});

describe("knowledge kinds reach a directive's context", () => {
  const { sources } = readProject(FIXTURE);
  const text = (id: string, ext: string) => readFileSync(join(FIXTURE, ".ai/knowledge", `${id}${ext}`), "utf8");

  test("a .yaml item's content is its whole text; a .yml item with a body key gives that body; a .md item its body", async () => {
    const { dir, result } = compileToDir(sources);
    expect(result.diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
    const content = async (id: string) => (await import(join(dir, "knowledge", `${id}.js`))).content;
    expect(await content("kinds/house_style")).toBe(text("kinds/house_style", ".yaml"));
    expect(await content("kinds/signature")).toBe('Sign every message as "The Kinds Team".');
    expect(await content("kinds/checklist")).toBe("Before sending, check the name is spelt as given.");
    const welcome = await importDirective(dir, "kinds/welcome");
    const thread = welcome.renderThread({ name: "Ada" });
    const first = thread.messages[0].content as string;
    // Just before the prompt: the YAML file, stripped, as the original's knowledge executor returns it.
    expect(first).toContain(`\n\n${text("kinds/house_style", ".yaml").trim()}\n\n<directive name="welcome">\n`);
    expect(first).toContain("Write a short welcome for Ada, following the house style.");
    expect(first).toContain('Sign every message as "The Kinds Team".\n\nBefore sending, check the name is spelt as given.');
  });

  test("an empty body is no content either: a .md item whose fence is all it holds gives its whole text", async () => {
    const bare = "```yaml\nname: bare\n```\n";
    const { dir } = compileToDir([...sources, { kind: "knowledge", id: "kinds/bare", path: ".ai/knowledge/kinds/bare.md", ext: ".md", text: bare }]);
    expect((await import(join(dir, "knowledge/kinds/bare.js"))).content).toBe(bare);
  });
});
