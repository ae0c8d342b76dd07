// A Vite client build ships some files to the browser without any plugin's load hook: the asset
// pipeline reads `new URL("…", import.meta.url)` itself (inlined as a data: URL below
// assetsInlineLimit, emitted as an asset above it), publicDir is copied as is, and another plugin can
// emit a file as an asset. With ryeVerify(), build output reaching the bundle any of these ways is
// refused: the build fails naming the file and nothing carrying the payload is written. Each row is
// a real `vite build`; the dist is searched for the payload's marker path, in data: URLs too.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { outsideOf } from "../helpers/outside.js";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, inject, makeProject, markerRan, node, REPO, rye, tempDir } from "./helpers.js";

const NEW_URL = `const u = new URL("../out/directives/examples/greet.js", import.meta.url).href;\nimport(/* @vite-ignore */ u);\n`;
const IMPORT = `import { directives } from "../out/index.js";\nconsole.log(directives["examples/greet"]);\n`;
/** A plugin that copies a file into the build as an asset, as copy plugins do. */
const COPY = `{ name: "copy", buildStart() { this.emitFile({ type: "asset", fileName: "greet.js", originalFileName: "../out/directives/examples/greet.js", source: readFileSync("out/directives/examples/greet.js") }); } }`;

const script = (o: { inlineLimit?: number; publicDir?: string; copy?: boolean }) => `import { build } from "vite";
import { readFileSync } from "node:fs";
import { ryeVerify } from "rye-build/vite";
await build({ root: "web", configFile: false, logLevel: "silent", plugins: [ryeVerify()${o.copy ? `, ${COPY}` : ""}],
  publicDir: ${JSON.stringify(o.publicDir ?? "public")},
  build: { outDir: "../webdist", emptyOutDir: true, assetsInlineLimit: ${o.inlineLimit ?? 4096} } });
console.log("built");
`;

/** Every file under `dir` as text, with each base64 data: URL in it decoded alongside. */
function distText(dir: string): string {
  if (!existsSync(dir)) return "";
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return files
    .map((e) => {
      const text = readFileSync(join(e.parentPath, e.name), "latin1");
      const decoded = [...text.matchAll(/base64,([A-Za-z0-9+/=]+)/g)].map((m) => Buffer.from(m[1]!, "base64").toString("latin1"));
      return [text, ...decoded].join("\n");
    })
    .join("\n");
}

describe("a Vite client build with ryeVerify() and build output reaching the bundle past load", () => {
  const base = tempDir("rye-load-vite-assets-");
  const project = makeProject(join(base, "project"));
  const env = cleanEnv({ USER_SPACE: join(outsideOf(base), "home") });
  const marker = join(base, "PWNED");
  const greet = join(project, "out", "directives", "examples", "greet.js");
  const dist = join(project, "webdist");

  beforeAll(() => {
    const built = rye(project, env, "build");
    expect(built.status, built.stderr).toBe(0);
    symlinkSync(join(REPO, "node_modules", "vite"), join(project, "node_modules", "vite"), "dir");
    mkdirSync(join(project, "web"));
    writeFileSync(join(project, "web", "index.html"), `<!doctype html><script type="module" src="./main.js"></script>\n`);
  }, 60_000);

  function build(main: string, options: Parameters<typeof script>[0], tampered: boolean) {
    const saved = readFileSync(greet);
    rmSync(marker, { force: true });
    rmSync(dist, { recursive: true, force: true });
    if (tampered) inject(greet, marker);
    // A publicDir with a copy of the (perhaps tampered) output folder in it.
    const pub = join(project, "web", "pub");
    rmSync(pub, { recursive: true, force: true });
    if (options.publicDir === "pub") cpSync(join(project, "out"), join(pub, "out"), { recursive: true });
    try {
      writeFileSync(join(project, "web", "main.js"), main);
      writeFileSync(join(project, "build.mjs"), script(options));
      const r = node(project, env, "build.mjs");
      return { ...r, all: r.stdout + r.stderr, shipped: distText(dist).includes(marker) };
    } finally {
      writeFileSync(greet, saved);
      rmSync(pub, { recursive: true, force: true });
    }
  }

  const refused: [string, string, Parameters<typeof script>[0], RegExp][] = [
    ["new URL, inlined as a data: URL", NEW_URL, { inlineLimit: 1_000_000 }, /greet\.js is build output that .*main\.js names with new URL/],
    ["new URL, emitted as an asset file", NEW_URL, { inlineLimit: 0 }, /greet\.js is build output that .*main\.js names with new URL/],
    ["another plugin emitting the file as an asset", `console.log(1);\n`, { copy: true }, /Content modified since signing: examples\/greet/],
    ["publicDir holding out/", `console.log(1);\n`, { publicDir: "pub" }, /publicDir\) holds build output \(.*\/pub\/out\)/],
    ["publicDir inside out/", `console.log(1);\n`, { publicDir: "../out" }, /publicDir\) holds build output \(.*\/project\/out\)/],
  ];

  test.each(refused)("%s: the build fails naming the file, and no output carries the payload", (_name, main, options, message) => {
    const r = build(main, options, true);
    expect(r.status, r.all).not.toBe(0);
    expect(r.all).toMatch(message);
    expect(r.all).not.toContain("built");
    expect(r.shipped).toBe(false);
    expect(markerRan(marker)).toBe(false);
  }, 120_000);

  test("publicDir holding out/, untouched: still refused (its bytes would be served unverified)", () => {
    const r = build(`console.log(1);\n`, { publicDir: "pub" }, false);
    expect(r.status).not.toBe(0);
    expect(r.all).toMatch(/publicDir\) holds build output/);
  }, 120_000);

  test("control: importing the untouched output builds", () => {
    const r = build(IMPORT, {}, false);
    expect(r.status, r.all).toBe(0);
    expect(r.stdout).toContain("built");
    expect(distText(dist)).toContain("examples/greet");
  }, 120_000);

  test("control: the copy plugin with the untouched file builds, the asset is the signed bytes", () => {
    const r = build(`console.log(1);\n`, { copy: true }, false);
    expect(r.status, r.all).toBe(0);
    expect(readFileSync(join(dist, "greet.js"))).toEqual(readFileSync(greet));
  }, 120_000);

  test("control: the same payload through the same new URL in a file outside every output folder ships (the rows above are not refused for another reason)", () => {
    cpSync(greet, join(project, "copy.js"));
    inject(join(project, "copy.js"), marker);
    try {
      const r = build(NEW_URL.replace("../out/directives/examples/greet.js", "../copy.js"), { inlineLimit: 1_000_000 }, false);
      expect(r.status, r.all).toBe(0);
      expect(r.shipped).toBe(true);
    } finally {
      rmSync(join(project, "copy.js"));
    }
  }, 120_000);
});
