// out/index.js holds the directives and nothing that runs tools: its whole static import graph is the
// directive modules and the pure runtime, so a browser bundle of a consumer works with no Node at all.
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createContext, runInContext } from "node:vm";
import { buildSync, type Metafile } from "esbuild";
import { describe, expect, test } from "vitest";
import { readProject } from "../../src/project/read-project.js";
import { compileToDir, source } from "../helpers/compile.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));

// An env ref (read from `process.env` where there is a process) and a name with a space and non-ASCII.
const ENVY = source("t/ünï cödé", `# envy

\`\`\`xml
<directive name="envy" version="1.0.0">
  <metadata><description>Uses the environment.</description></metadata>
  <inputs><input name="who" type="string" required="true">Who</input></inputs>
</directive>
\`\`\`

Hello {input:who}, home is {env:HOME:nowhere}.
`);

// The example project: directives, knowledge and tools (whose modules spawn processes).
const { dir, result } = compileToDir([...readProject(repo).sources, ENVY]);

/** Every file esbuild reaches from `entry` by static import, and every import it left unresolved. */
function importGraph(entry: string): { files: string[]; external: string[] } {
  // packages: "external" keeps bare imports (execa) and node: builtins out of the walk, so they show up as external.
  const r = buildSync({ entryPoints: [entry], bundle: true, write: false, metafile: true, platform: "node", format: "esm", packages: "external", logLevel: "silent" });
  const meta = r.metafile as Metafile;
  const files = Object.keys(meta.inputs).map((f) => relative(dir, join(process.cwd(), f)).split("\\").join("/"));
  const external = Object.values(meta.inputs).flatMap((i) => i.imports.filter((x) => x.external).map((x) => x.path));
  return { files, external };
}

describe("out/index.js", () => {
  test("compiled the tools too, into their own registry", () => {
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(result.tools).toContain("examples/word_count");
    expect(result.files.get("index.js")).not.toContain("tools/");
    expect(result.files.get("tools.js")).toContain('from "./tools/examples/word_count.js"');
  });

  test("imports no node: module, no package and no tool-execution code, anywhere in its static graph", () => {
    const graph = importGraph(join(dir, "index.js"));
    expect(graph.files).toContain("directives/examples/greet.js");
    expect(graph.files).toContain("runtime/directive.js");
    // Knowledge a thread is given comes from its module, which imports nothing.
    expect(graph.files).toContain("knowledge/examples/style-guide.js");
    expect(graph.external).toEqual([]);
    expect(graph.files.filter((f) => !/^(index\.js|directives\/.*\.js|knowledge\/.*\.js|runtime\/[^/]+\.js|runtime\/context\/[^/]+\.js|runtime\/exec\/substitute-params\.js|runtime\/exec\/expand-env\.js)$/.test(f))).toEqual([]);
  });

  test("no emitted module checks itself: none imports the integrity check or reads its own URL", () => {
    const emitted = [...result.files].filter(([path]) => /\.(js|ts)$/.test(path));
    expect(emitted.length).toBeGreaterThan(20);
    for (const [path, text] of emitted) expect(text, path).not.toMatch(/integrity\.js|ensureIntegrity|import\.meta/);
    for (const entry of ["index.js", "tools.js"]) expect(importGraph(join(dir, entry)).files).not.toContain("runtime/integrity.js");
  });

  test("while out/tools.js does reach execa and node: modules (the walk can see them)", () => {
    const graph = importGraph(join(dir, "tools.js"));
    expect(graph.external).toContain("execa");
    expect(graph.external.some((x) => x.startsWith("node:child_process") || x === "child_process")).toBe(true);
    expect(graph.files).toContain("runtime/exec/run-tool.js");
  });

  test("a browser bundle of a consumer renders in a context with no process, require or module", async () => {
    const consumer = join(dir, "browser-consumer.js");
    writeFileSync(
      consumer,
      `import { directives } from "./index.js";
globalThis.results = {
  greet: directives["examples/greet"].render({ name: "Ada", title: "Dr." }),
  envy: directives["t/ünï cödé"].render({ who: "Bo" }),
  thread: directives["examples/review_change"].renderThread({ diff: "d" }),
  invalid: directives["examples/greet"].validate({}),
};
`,
    );
    const bundle = buildSync({ entryPoints: [consumer], bundle: true, write: false, platform: "browser", format: "iife", logLevel: "silent" });
    const code = bundle.outputFiles[0]!.text;
    expect(code).not.toMatch(/node:|require\(/);
    const sandbox: { results?: Record<string, unknown> } = {};
    const context = createContext(sandbox);
    expect(runInContext("typeof process + typeof require + typeof module", context)).toBe("undefinedundefinedundefined");
    runInContext(code, context);
    // The same calls through Node's own import of out/, with the empty environment a browser has.
    const url = (rel: string) => pathToFileURL(join(dir, rel)).href;
    const { directives } = await import(url("index.js"));
    const expected = {
      greet: directives["examples/greet"].render({ name: "Ada", title: "Dr." }),
      envy: directives["t/ünï cödé"].render({ who: "Bo" }, { env: {} }),
      thread: directives["examples/review_change"].renderThread({ diff: "d" }),
      invalid: directives["examples/greet"].validate({}),
    };
    // Objects made in another realm: compare their JSON.
    expect(JSON.parse(JSON.stringify(sandbox.results))).toEqual(JSON.parse(JSON.stringify(expected)));
    expect((sandbox.results!.envy as { body: string }).body).toBe("Hello Bo, home is nowhere.");
    expect((sandbox.results!.greet as { body: string }).body).toContain("Ada");
  });
});
