// The register entry handed on to a child process or worker that starts in another folder. Node
// resolves a preload named `rye-build/register` from the working directory of the process that
// starts, and a checkout can carry a folder holding its own node_modules/rye-build: the entry must
// reach every child as its absolute file. Each row starts a child in such a folder (work/), whose
// planted register writes a marker; out/index.js is tampered. The child must be refused by the real
// verifier, and neither marker may exist.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, makeGreetProject, markerRan, node, payload, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const CHILD_MJS = `const m = await import(new URL("./out/index.js", import.meta.url));\nconsole.log("child loaded", Object.keys(m.directives));\n`;
const CHILD_CJS = `import(require("node:url").pathToFileURL(require("node:path").join(__dirname, "out/index.js")).href).then((m) => console.log("child loaded", Object.keys(m.directives)), (e) => { console.error(String(e && e.stack || e)); process.exitCode = 1; });\n`;
const EXIT = `(code) => { process.exitCode = code ?? 1; }`;
const WORK = `new URL("./work/", import.meta.url)`;

interface Row {
  files: Record<string, string>;
  /** Node's arguments; `NODE_OPTIONS` when the row starts the parent under it. */
  args: string[];
  nodeOptions?: string;
}

const ROWS: Record<string, Row> = {
  "fork with a cwd (--import)": {
    files: { "app.mjs": `import { fork } from "node:child_process";\nfork(new URL("./child.mjs", import.meta.url), [], { cwd: ${WORK} }).on("exit", ${EXIT});\n` },
    args: ["--import", "rye-build/register", "app.mjs"],
  },
  "fork with a cwd (--import=)": {
    files: { "app.mjs": `import { fork } from "node:child_process";\nfork(new URL("./child.mjs", import.meta.url), [], { cwd: ${WORK} }).on("exit", ${EXIT});\n` },
    args: ["--import=rye-build/register", "app.mjs"],
  },
  "fork with a cwd (-r)": {
    files: { "app.cjs": `const { fork } = require("node:child_process");\nfork(require("node:path").join(__dirname, "child.cjs"), [], { cwd: require("node:path").join(__dirname, "work") }).on("exit", ${EXIT});\n` },
    args: ["-r", "rye-build/register", "app.cjs"],
  },
  "spawn of node with a cwd, under NODE_OPTIONS": {
    files: { "app.mjs": `import { spawnSync } from "node:child_process";\nimport { fileURLToPath } from "node:url";\nconst r = spawnSync(process.execPath, [fileURLToPath(new URL("./child.mjs", import.meta.url))], { cwd: ${WORK}, stdio: "inherit" });\nprocess.exitCode = r.status ?? 1;\n` },
    args: ["app.mjs"],
    nodeOptions: "--import rye-build/register",
  },
  "spawn of node with process.execArgv and a cwd": {
    files: { "app.mjs": `import { spawnSync } from "node:child_process";\nimport { fileURLToPath } from "node:url";\nconst r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(new URL("./child.mjs", import.meta.url))], { cwd: ${WORK}, stdio: "inherit" });\nprocess.exitCode = r.status ?? 1;\n` },
    args: ["--import", "rye-build/register", "app.mjs"],
  },
  "Worker after process.chdir()": {
    files: { "app.mjs": `import { Worker } from "node:worker_threads";\nconst child = new URL("./child.mjs", import.meta.url);\nprocess.chdir(new URL("./work/", import.meta.url).pathname);\nconst w = new Worker(child);\nw.on("error", (e) => { console.error(String(e && e.stack || e)); process.exitCode = 1; });\nw.on("exit", (code) => { if (code !== 0) process.exitCode = 1; });\n` },
    args: ["--import", "rye-build/register", "app.mjs"],
  },
  "Worker after process.chdir(), under NODE_OPTIONS": {
    files: { "app.mjs": `import { Worker } from "node:worker_threads";\nconst child = new URL("./child.mjs", import.meta.url);\nprocess.chdir(new URL("./work/", import.meta.url).pathname);\nconst w = new Worker(child);\nw.on("error", (e) => { console.error(String(e && e.stack || e)); process.exitCode = 1; });\nw.on("exit", (code) => { if (code !== 0) process.exitCode = 1; });\n` },
    args: ["app.mjs"],
    nodeOptions: "--import rye-build/register",
  },
};

describe("the register entry reaches a child started in another folder as its own file", () => {
  const base = tempDir("rye-carried-entry-");
  const project = makeGreetProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const planted = join(base, "PLANTED_REGISTER_RAN");
  const tampered = join(base, "TAMPERED_OUTPUT_RAN");
  const index = join(project, "out", "index.js");

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    const fake = join(project, "work", "node_modules", "rye-build");
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, "package.json"), JSON.stringify({ name: "rye-build", exports: { "./register": "./register.js" } }));
    writeFileSync(join(fake, "register.js"), `require("node:fs").writeFileSync(${JSON.stringify(planted)}, "planted register ran");\n`);
    writeFileSync(join(project, "child.mjs"), CHILD_MJS);
    writeFileSync(join(project, "child.cjs"), CHILD_CJS);
  }, 60_000);

  test("control: the untouched build loads in a forked child with a cwd", () => {
    writeFileSync(join(project, "app.mjs"), ROWS["fork with a cwd (--import)"]!.files["app.mjs"]!);
    rmSync(planted, { force: true });
    const r = node(project, env, "--import", "rye-build/register", "app.mjs");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("child loaded");
    expect(markerRan(planted)).toBe(false);
  }, 60_000);

  test.each(Object.keys(ROWS))("%s: the real verifier refuses tampered output; no planted register runs", (name) => {
    const row = ROWS[name]!;
    for (const [file, text] of Object.entries(row.files)) writeFileSync(join(project, file), text);
    rmSync(planted, { force: true });
    rmSync(tampered, { force: true });
    const saved = readFileSync(index, "utf8");
    writeFileSync(index, saved.replace("\n", `\n${payload(tampered)}`));
    let r;
    try {
      r = node(project, row.nodeOptions ? { ...env, NODE_OPTIONS: row.nodeOptions } : env, ...row.args);
    } finally {
      writeFileSync(index, saved);
    }
    expect(r.status, r.stderr).not.toBe(0);
    expect(r.stderr).toMatch(/IntegrityError/);
    expect(r.stdout).not.toContain("child loaded");
    expect(markerRan(planted)).toBe(false);
    expect(markerRan(tampered)).toBe(false);
  }, 60_000);
});
