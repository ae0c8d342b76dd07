import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, utimesSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { tempTree, testUserSpace, writeTree } from "../helpers/cli.js";

// `rye build` loads what a build needs and nothing else: never the language server, the bundler,
// the previewer, TypeScript, execa or the code-frame library; and a build the up-to-date stamp
// answers loads neither the compiler nor yaml. Real processes (bin/rye.js and dist/, as installed)
// log every module they load through a module hook; CommonJS modules come from require.cache.
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DIST = join(ROOT, "dist");
const BUNDLE = join(DIST, "cli-bundle");

const NEVER_FOR_BUILD = [
  /\/dist\/lsp\//,
  /\/dist\/bundle\//,
  /\/dist\/preview\//,
  /\/dist\/cli\/commands\/(?:bundle|lsp|preview|run|verify|init|keys|sign)\.js$/,
  /\/node_modules\/(?:vscode-languageserver[^/]*|vscode-jsonrpc|typescript|execa|esbuild|@babel\/code-frame)\//,
];
const NOT_FOR_A_NO_OP = [
  /\/dist\/compile\//,
  /\/dist\/emit\//,
  /\/dist\/builder\/build-project\.js$/,
  /\/dist\/sign\/sign-output\.js$/,
  /\/dist\/sign\/trust-store\.js$/,
  /\/node_modules\/(?:yaml|smol-toml)\//,
];

const directive = `# one

\`\`\`xml
<directive name="one" version="1.0.0">
  <metadata><description>One directive.</description></metadata>
  <inputs>
    <input name="topic" type="string" required="true">What to write about.</input>
    <input name="unused" type="string" required="false">Declared, never used: a warning.</input>
  </inputs>
</directive>
\`\`\`

<process>
  Write about {input:topic}.
</process>
`;
const knowledge = `\`\`\`yaml
name: facts
title: Facts
entry_type: reference
version: "1.0.0"
\`\`\`

Some facts.
`;

/** Every file under `dir`, and `dir`, ten seconds older: a stamp trusts nothing modified in the last second. */
function age(dir: string): void {
  const past = new Date(Date.now() - 10_000);
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) utimesSync(join(e.parentPath, e.name), past, past);
  utimesSync(dir, past, past);
}

const hooks = writeTree(testUserSpace(), {
  "hooks.mjs": `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.startsWith("file:")) appendFileSync(process.env.RYE_MODULE_LOG, url + "\\n");
  return next(url, context);
}
`,
  "log-modules.mjs": `import { register, createRequire } from "node:module";
import { appendFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
register(new URL("./hooks.mjs", import.meta.url));
const require = createRequire(import.meta.url);
process.on("exit", () => appendFileSync(process.env.RYE_MODULE_LOG, Object.keys(require.cache).map((f) => pathToFileURL(f).href + "\\n").join("")));
`,
});

/** Runs `node [--import log-modules] <entry> build --project dir`; the file paths of the modules it loaded. */
function loaded(entry: string, dir: string, user: string, name: string, extra: string[] = []): string[] {
  const log = join(hooks, `${name}.log`);
  const script = `const { main } = await import(${JSON.stringify(pathToFileURL(entry).href)});
process.exitCode = await main(${JSON.stringify(["build", "--project", dir, ...extra])}, { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env });`;
  const r = spawnSync(process.execPath, ["--import", pathToFileURL(join(hooks, "log-modules.mjs")).href, "--input-type=module", "-e", script], {
    cwd: dir,
    env: { ...process.env, USER_SPACE: user, NO_COLOR: "1", RYE_MODULE_LOG: log },
    encoding: "utf8",
  });
  expect(r.stderr).toContain("RYE2002"); // the unused input's warning, printed by every build
  expect(r.status).toBe(0);
  return [...new Set(readFileSync(log, "utf8").trim().split("\n"))].map((u) => fileURLToPath(u));
}

/** A built project with its stamp recorded, so the next build is answered from it. */
function stampedProject(entry: string): { dir: string; user: string; cold: string[] } {
  const user = testUserSpace();
  const dir = tempTree({ ".ai/directives/t/one.md": directive, ".ai/knowledge/t/facts.md": knowledge });
  age(join(dir, ".ai"));
  const cold = loaded(entry, dir, user, `cold-${relative(DIST, entry).replace(/\W/g, "-")}`);
  age(join(dir, "out"));
  age(user);
  loaded(entry, dir, user, "stamp");
  expect(existsSync(join(dir, ".rye-cache", "up-to-date.json"))).toBe(true);
  return { dir, user, cold };
}

const matching = (files: string[], patterns: RegExp[]) => files.filter((f) => patterns.some((p) => p.test(f.split("\\").join("/"))));

describe("the modules rye build loads, from dist/'s modules", () => {
  const entry = join(DIST, "cli", "main.js");
  let project: ReturnType<typeof stampedProject>;
  beforeAll(() => {
    project = stampedProject(entry);
  });

  test("a build from scratch loads the compiler and yaml, and nothing another command needs", () => {
    expect(matching(project.cold, [/\/dist\/compile\/build\.js$/, /\/node_modules\/yaml\//]).length).toBeGreaterThan(1);
    expect(matching(project.cold, NEVER_FOR_BUILD)).toEqual([]);
  });

  test("a build the stamp answers loads neither the compiler nor yaml", () => {
    const noOp = loaded(entry, project.dir, project.user, "no-op");
    expect(matching(noOp, [/\/dist\/cache\/up-to-date\.js$/])).toHaveLength(1);
    expect(matching(noOp, [...NEVER_FOR_BUILD, ...NOT_FOR_A_NO_OP])).toEqual([]);
  });

  test("--check on a tree the stamp answers loads neither the compiler nor yaml", () => {
    const check = loaded(entry, project.dir, project.user, "check", ["--check"]);
    expect(matching(check, [/\/dist\/cache\/up-to-date\.js$/])).toHaveLength(1);
    expect(matching(check, [...NEVER_FOR_BUILD, ...NOT_FOR_A_NO_OP])).toEqual([]);
  });
});

describe.runIf(existsSync(join(BUNDLE, "metafile.json")))("the modules rye build loads, from the bundle bin/rye.js loads", () => {
  const meta = () => JSON.parse(readFileSync(join(BUNDLE, "metafile.json"), "utf8")) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  /** What the chunks a process loaded were bundled from. */
  const bundledFrom = (files: string[]) => {
    const outputs = meta().outputs;
    const chunks = files.filter((f) => f.startsWith(BUNDLE)).map((f) => relative(ROOT, f).split("\\").join("/"));
    expect(chunks.length).toBeGreaterThan(0);
    return chunks.flatMap((c) => Object.keys(outputs[c]?.inputs ?? {})).map((i) => join(ROOT, i));
  };
  const entry = join(BUNDLE, "main.mjs");
  let project: ReturnType<typeof stampedProject>;
  beforeAll(() => {
    project = stampedProject(entry);
  });

  test("a build from scratch loads no chunk holding what another command needs", () => {
    const inputs = bundledFrom(project.cold);
    expect(matching(inputs, [/\/dist\/compile\/build\.js$/])).toHaveLength(1);
    expect(matching(inputs, NEVER_FOR_BUILD)).toEqual([]);
    // Nothing is loaded beside the bundle but Node's own modules.
    expect(project.cold.filter((f) => !f.startsWith(BUNDLE))).toEqual([]);
  });

  test("a build the stamp answers loads no chunk holding the compiler", () => {
    const noOp = loaded(entry, project.dir, project.user, "no-op-bundle");
    const inputs = bundledFrom(noOp);
    expect(matching(inputs, [/\/dist\/cache\/up-to-date\.js$/])).toHaveLength(1);
    expect(matching(inputs, [...NEVER_FOR_BUILD, ...NOT_FOR_A_NO_OP])).toEqual([]);
  });
});
