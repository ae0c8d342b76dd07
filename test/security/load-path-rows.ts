// One row per way an application loads build output under `--import rye-build/register`. Each
// row's files print the rendered greet directive on stdout and exit non-zero when loading fails.
// `dep` rows load a copy of the build shipped inside node_modules/greeter (as a package would).

/** Where the tampered module lies: the project's own out/, or the copy inside node_modules/greeter. */
export type Target = "out" | "dep";

export interface LoadPathRow {
  files: Record<string, string>;
  /** Node's arguments after `--import rye-build/register`. */
  args: string[];
  target: Target;
}

const GREET = `JSON.stringify(m.directives["examples/greet"].render({ name: "Ada" }))`;

/** A load hook that answers every `.js` of an out/ folder from the file itself, never calling the hooks registered before it. */
const LATER_LOAD_HOOK = `import { readFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.startsWith("file:") && url.includes("/out/") && url.endsWith(".js")) return { format: "module", source: readFileSync(new URL(url), "utf8"), shortCircuit: true };
  return next(url, context);
}
`;

/** A parent that runs `child` in a worker and prints what it posts; a worker error fails the parent. */
function forkParent(options: string): string {
  return `import { fork } from "node:child_process";
const c = fork("child.mjs", [], ${options});
c.on("exit", (code) => { process.exitCode = code ?? 1; });
`;
}

function workerParent(child: string, options: string): string {
  return `import { Worker } from "node:worker_threads";
const w = new Worker(${child}, ${options});
w.on("message", (line) => console.log(line));
w.on("error", (e) => { console.error(String(e && e.stack || e)); process.exitCode = 1; });
w.on("exit", (code) => { if (code !== 0) process.exitCode = 1; });
`;
}

/**
 * The rows for an application whose entry into the build is `entry` (a path from the project root)
 * and that prints `print`, an expression over the loaded module `m`. The `dep` rows load the
 * package greeter, whose export is its build's index.js.
 */
export function loadPathRows(entry: string, print: string): Record<string, LoadPathRow> {
  const RENDER = print;
  const PRINT_CJS = (spec: string) => `const m = require(${JSON.stringify(spec)});\nconsole.log(${RENDER});\n`;
  const WORKER_CHILD = `import { parentPort } from "node:worker_threads";
const m = await import(${JSON.stringify(entry)});
parentPort.postMessage(${RENDER});
`;
  const EVAL_CHILD = `const m = require(require("node:path").resolve(${JSON.stringify(entry)}));
require("node:worker_threads").parentPort.postMessage(${RENDER});`;
  const FORK_CHILD = `const m = await import(${JSON.stringify(entry)});\nconsole.log(${RENDER});\n`;
  
  return {
    "static import": { files: { "app.mjs": `import * as m from ${JSON.stringify(entry)};\nconsole.log(${RENDER});\n` }, args: ["app.mjs"], target: "out" },
    "dynamic import()": { files: { "app.mjs": `const m = await import(${JSON.stringify(entry)});\nconsole.log(${RENDER});\n` }, args: ["app.mjs"], target: "out" },
    "require() of ES module output from a CommonJS app": { files: { "app.cjs": PRINT_CJS(entry) }, args: ["app.cjs"], target: "out" },
    "require() of one output module directly": { files: { "app.cjs": `const g = require("./out/directives/examples/greet.js");\nconst m = { directives: { "examples/greet": g } };\nconsole.log(${RENDER});\n` }, args: ["app.cjs"], target: "out" },
    "createRequire(import.meta.url)": { files: { "app.mjs": `import { createRequire } from "node:module";\nconst m = createRequire(import.meta.url)(${JSON.stringify(entry)});\nconsole.log(${RENDER});\n` }, args: ["app.mjs"], target: "out" },
    // Preloads given with -r run before any --import: the register entry must come first among them.
    "--require preload of output, after -r rye-build/register": { files: { "app.cjs": PRINT_CJS(entry) }, args: ["-r", "rye-build/register", "-r", entry, "app.cjs"], target: "out" },
    // A hook installed after rye's that replaces the .js handler (reads and compiles files itself, as some transpiling hooks do).
    "require() through a later hook that bypasses rye's handler": {
      files: {
        "hook.cjs": `const Module = require("node:module");\nconst { readFileSync } = require("node:fs");\nModule._extensions[".js"] = (module, filename) => module._compile(readFileSync(filename, "utf8"), filename);\n`,
        "app.cjs": `require("./hook.cjs");\n${PRINT_CJS(entry)}`,
      },
      args: ["app.cjs"],
      target: "out",
    },
    // An ES module load hook registered after rye's that reads output files itself and short-circuits.
    "import through a later ES module load hook that reads output itself": {
      files: { "myhook.mjs": LATER_LOAD_HOOK, "reg.mjs": `import { register } from "node:module";\nregister("./myhook.mjs", import.meta.url);\n`, "app.mjs": `import * as m from ${JSON.stringify(entry)};\nconsole.log(${RENDER});\n` },
      args: ["--import", "./reg.mjs", "app.mjs"],
      target: "out",
    },
    "import through a later load hook registered from CommonJS": {
      files: { "myhook.mjs": LATER_LOAD_HOOK, "reg.cjs": `require("node:module").register("./myhook.mjs", require("node:url").pathToFileURL(__filename));\n`, "app.mjs": `const m = await import(${JSON.stringify(entry)});\nconsole.log(${RENDER});\n` },
      args: ["-r", "rye-build/register", "-r", "./reg.cjs", "app.mjs"],
      target: "out",
    },
    "module.require": { files: { "app.cjs": `const m = module.require(${JSON.stringify(entry)});\nconsole.log(${RENDER});\n` }, args: ["app.cjs"], target: "out" },
    "require() of a dependency shipping rye output": { files: { "app.cjs": PRINT_CJS("greeter") }, args: ["app.cjs"], target: "dep" },
    "import of a dependency shipping rye output": { files: { "app.mjs": `import * as m from "greeter";\nconsole.log(${RENDER});\n` }, args: ["app.mjs"], target: "dep" },
    "require() of an ES module dependency that re-exports rye output": { files: { "app.cjs": PRINT_CJS("wrapper") }, args: ["app.cjs"], target: "dep" },
    "Worker (inherited execArgv)": { files: { "app.mjs": workerParent(`new URL("./child.mjs", import.meta.url)`, "{}"), "child.mjs": WORKER_CHILD }, args: ["app.mjs"], target: "out" },
    "Worker with execArgv: []": { files: { "app.mjs": workerParent(`new URL("./child.mjs", import.meta.url)`, "{ execArgv: [] }"), "child.mjs": WORKER_CHILD }, args: ["app.mjs"], target: "out" },
    "Worker from a code string (eval: true)": { files: { "app.cjs": `const { Worker } = require("node:worker_threads");
const w = new Worker(${JSON.stringify(EVAL_CHILD)}, { eval: true, execArgv: [] });
w.on("message", (line) => console.log(line));
w.on("error", (e) => { console.error(String(e && e.stack || e)); process.exitCode = 1; });
` }, args: ["app.cjs"], target: "out" },
    "child_process.fork (inherited execArgv)": { files: { "app.mjs": forkParent("{}"), "child.mjs": FORK_CHILD }, args: ["app.mjs"], target: "out" },
    "child_process.fork with execArgv: []": { files: { "app.mjs": forkParent("{ execArgv: [] }"), "child.mjs": FORK_CHILD }, args: ["app.mjs"], target: "out" },
  };
}

export const LOAD_PATHS = loadPathRows("./out/index.js", GREET);

/** node_modules/greeter (a package whose entry is its own rye build) and node_modules/wrapper (plain ESM re-exporting it). */
export const DEP_PACKAGES: Record<string, Record<string, string>> = {
  greeter: { "package.json": JSON.stringify({ name: "greeter", type: "module", exports: "./out/index.js" }) },
  wrapper: { "package.json": JSON.stringify({ name: "wrapper", type: "module", exports: "./index.js" }), "index.js": `export * from "greeter";\n` },
};
