// The pure parts of the load-path hooks, to the letter: which format Node gives a file required
// (Node's own rules: extension, package type for .js only, then syntax), which imports a module
// links before it runs, the resolve request the register entry sends its hooks thread, the
// execArgv a worker or forked process gets, and which bundler ids name files the plugins check.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { evalWithLoader, withLoader } from "../../src/register/carry-loader.js";
import { moduleSyntax } from "../../src/register/import-specifiers.js";
import { formatOf, packageTypeOf } from "../../src/register/module-format.js";
import { readResolveRequest, RESOLVE_PREFIX } from "../../src/register/resolve-request.js";
import { codeFileOf } from "../../src/plugins/verified-load.js";
import { requestedPath } from "../../src/register/requested-path.js";
import { OutputGuard } from "../../src/verify/output-guard.js";

describe("formatOf (Node's CommonJS loader's choice)", () => {
  const never = () => {
    throw new Error("not asked");
  };
  test(".mjs and .cjs decide alone, whatever the package says", () => {
    expect(formatOf("/a/x.mjs", never, never)).toBe("module");
    expect(formatOf("/a/x.cjs", never, never)).toBe("commonjs");
  });
  test("a .js file follows its package type; without one, its syntax", () => {
    expect(formatOf("/a/x.js", () => "module", never)).toBe("module");
    expect(formatOf("/a/x.js", () => "commonjs", never)).toBe("commonjs");
    expect(formatOf("/a/x.js", () => undefined, () => true)).toBe("module");
    expect(formatOf("/a/x.js", () => undefined, () => false)).toBe("commonjs");
  });
  test("any other extension ignores the package type (as Node does) and goes by syntax", () => {
    expect(formatOf("/a/x", never, () => true)).toBe("module");
    expect(formatOf("/a/x.jsx", never, () => false)).toBe("commonjs");
  });
});

describe("packageTypeOf", () => {
  const root = mkdtempSync(join(tmpdir(), "rye-pkgtype-"));
  const put = (rel: string, text: string) => {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  put("m/package.json", '{ "type": "module" }');
  put("m/c/package.json", '{ "type": "commonjs" }');
  put("m/none/package.json", '{ "name": "x" }');
  put("m/bad/package.json", "{ not json");
  put("m/odd/package.json", '{ "type": "wasm" }');
  mkdirSync(join(root, "m", "deep", "er"), { recursive: true });
  test.each([
    ["m/x.js", "module"],
    ["m/deep/er/x.js", "module"],
    ["m/c/x.js", "commonjs"],
    ["m/none/x.js", undefined],
    ["m/bad/x.js", undefined],
    ["m/odd/x.js", undefined],
  ])("%s: the nearest package.json decides (%s)", (rel, type) => {
    expect(packageTypeOf(join(root, rel))).toBe(type);
  });
  test("no package.json up to the root: undefined", () => {
    expect(packageTypeOf("/x.js", () => {
      throw new Error("ENOENT");
    })).toBeUndefined();
  });
});

describe("moduleSyntax", () => {
  test("static imports and re-exports in source order, each once; dynamic import() and import.meta left out", () => {
    const text = `import a from "./a.js";\nexport * from "./b.js";\nimport "./a.js";\nconst c = await import("./c.js");\nexport { d } from "d";\nconsole.log(import.meta.url);\nimport * as e from 'node:fs';\n`;
    expect(moduleSyntax(text, "/p/a.js")).toEqual({ imports: ["./a.js", "./b.js", "d", "node:fs"], hasModuleSyntax: true });
  });
  test("CommonJS text has no module syntax and no imports", () => {
    expect(moduleSyntax(`const x = require("./x.js");\nmodule.exports = x;\n`, "/p/c.js")).toEqual({ imports: [], hasModuleSyntax: false });
  });
  test("a dynamic import alone is no module syntax", () => {
    expect(moduleSyntax(`import("./x.js");\n`, "/p/d.js")).toEqual({ imports: [], hasModuleSyntax: false });
  });
  test("text that is no JavaScript: an error naming the file", () => {
    expect(() => moduleSyntax(`import {`, "/p/broken.js")).toThrow(/\/p\/broken\.js/);
  });
  test("property: every generated static import is found, in order, and no dynamic one", () => {
    const name = fc.stringMatching(/^\.\/[a-z]{1,8}\.js$/);
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 8 }), fc.array(name, { maxLength: 4 }), (statics, dynamics) => {
        const text = [...statics.map((s, i) => (i % 2 ? `export * from "${s}";` : `import "${s}";`)), ...dynamics.map((d) => `import(${JSON.stringify(d)});`)].join("\n");
        expect(moduleSyntax(text, "/p/gen.js").imports).toEqual(statics);
      }),
    );
  });
});

describe("resolve requests", () => {
  const request = (specifier: string, parent: string) => RESOLVE_PREFIX + encodeURIComponent(JSON.stringify([specifier, parent]));
  test("round trip, for any specifier and parent", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (s, p) => {
        expect(readResolveRequest(request(s, p))).toEqual({ specifier: s, parentURL: p });
      }),
    );
  });
  test.each([
    ["an ordinary specifier", "./x.js"],
    ["the prefix alone", RESOLVE_PREFIX],
    ["not JSON", `${RESOLVE_PREFIX}%7Bnope`],
    ["one string", RESOLVE_PREFIX + encodeURIComponent('["x"]')],
    ["three strings", RESOLVE_PREFIX + encodeURIComponent('["x","y","z"]')],
    ["a number first", RESOLVE_PREFIX + encodeURIComponent('[1,"x"]')],
    ["a request's JSON without the prefix", encodeURIComponent('["a","b"]')],
    ["as long as the prefix, then a request's JSON", "x".repeat(RESOLVE_PREFIX.length) + encodeURIComponent('["a","b"]')],
    ["a number", RESOLVE_PREFIX + encodeURIComponent('["x",1]')],
    ["an object", RESOLVE_PREFIX + encodeURIComponent('{"0":"x","1":"y"}')],
    ["the prefix later in the text", `x${request("a", "b")}`],
  ])("%s: not a request", (_, specifier) => {
    expect(readResolveRequest(specifier)).toBeNull();
  });
});

describe("withLoader / evalWithLoader", () => {
  const entry = "file:///pkg/dist/register/index.js";
  test("added in front when absent", () => {
    expect(withLoader([], entry)).toEqual(["--import", entry]);
    expect(withLoader(["--no-warnings"], entry)).toEqual(["--import", entry, "--no-warnings"]);
    expect(withLoader(["--import", "other"], entry)).toEqual(["--import", entry, "--import", "other"]);
    expect(withLoader(["--import=other"], entry)).toEqual(["--import", entry, "--import=other"]);
  });
  test.each([
    [["--import", entry]],
    [[`--import=${entry}`]],
  ])("kept as it is when it already imports the register entry: %j", (args) => {
    expect(withLoader(args, entry)).toEqual(args);
  });
  test.each([
    [["--import", "rye-build/register"], ["--import", entry]],
    [["--x", "--import=rye-build/register"], ["--x", `--import=${entry}`]],
    [["-r", "rye-build/register"], ["-r", "/pkg/dist/register/index.js"]],
    [["--require=rye-build/register", "--import", "other"], ["--require=/pkg/dist/register/index.js", "--import", "other"]],
  ])("the bare name, resolved again in the new process's cwd, is pinned to the entry's file: %j", (args, pinned) => {
    expect(withLoader(args, entry)).toEqual(pinned);
  });
  test("the caller's array is not changed", () => {
    const args = ["--no-warnings"];
    withLoader(args, entry);
    expect(args).toEqual(["--no-warnings"]);
  });
  test("a worker's code string starts by requiring the entry", () => {
    expect(evalWithLoader("go()", "/pkg/dist/register/index.js")).toBe('require("/pkg/dist/register/index.js");go()');
  });
});

describe("codeFileOf (which bundler ids the plugins read)", () => {
  test.each([
    ["/p/out/x.js", "/p/out/x.js"],
    ["/p/out/x.mjs?v=1", "/p/out/x.mjs"],
    ["/p/x.cts", "/p/x.cts"],
    ["/p/x.json", "/p/x.json"],
    ["/p/x.ts?import", "/p/x.ts"],
  ])("%s → %s", (id, file) => expect(codeFileOf(id)).toBe(file));
  test.each([["\0virtual.js"], ["x.js"], ["./x.js"], ["/p/x.css"], ["/p/x.jsx"], ["/p/x.js.map"]])("%s: not a file the plugins read", (id) => {
    expect(codeFileOf(id)).toBeNull();
  });
});

describe("OutputGuard.checkRequested (a path as requested, before links are followed)", () => {
  // A tree /root/a/b/c/d/e/f.js; the output folder is at some depth (a rye manifest there, or
  // pinned through outputDirs); one component may be replaced by a link to an outside copy. The
  // rule: refused exactly when the link is at or below the first component inside the output folder.
  const PARTS = ["a", "b", "c", "d", "e", "f.js"];
  const MANIFEST_TEXT = JSON.stringify({ generated_at: "2026-01-01T00:00:00Z", modules: [] });
  let n = 0;
  function tree(outDepth: number, linkAt: number | null, pinned: boolean): { guard: OutputGuard; file: string } {
    const root = mkdtempSync(join(tmpdir(), `rye-req-${n++}-`));
    const outside = join(root, "outside");
    mkdirSync(join(outside, ...PARTS.slice(0, -1)), { recursive: true });
    writeFileSync(join(outside, ...PARTS), "export {};\n");
    const top = join(root, "top");
    mkdirSync(join(top, ...PARTS.slice(0, -1)), { recursive: true });
    writeFileSync(join(top, ...PARTS), "export {};\n");
    const outDir = join(top, ...PARTS.slice(0, outDepth));
    if (!pinned) writeFileSync(join(outDir, "manifest.json"), MANIFEST_TEXT);
    if (linkAt !== null) {
      const at = join(top, ...PARTS.slice(0, linkAt + 1));
      rmSync(at, { recursive: true });
      symlinkSync(join(outside, ...PARTS.slice(0, linkAt + 1)), at);
    }
    return { guard: new OutputGuard({ outputDirs: pinned ? [outDir] : [], cwd: root, env: {} }), file: join(top, ...PARTS) };
  }

  test("refused exactly when a link lies inside the output folder", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: PARTS.length - 1 }), fc.option(fc.integer({ min: 0, max: PARTS.length - 1 }), { nil: null }), fc.boolean(), (outDepth, linkAt, pinned) => {
        // A link at or above the output folder itself moves the whole folder (manifest included): that is allowed.
        const { guard, file } = tree(outDepth, linkAt, pinned);
        const inside = linkAt !== null && linkAt >= outDepth;
        if (inside) expect(() => guard.checkRequested(file)).toThrow(/is a symbolic link inside the build output folder/);
        else expect(() => guard.checkRequested(file)).not.toThrow();
      }),
      { numRuns: 60 },
    );
  });

  test("a path outside every output folder, or not existing, is never refused", () => {
    const { guard } = tree(3, null, false);
    expect(() => guard.checkRequested("/nonexistent/x/y.js")).not.toThrow();
  });
});

describe("requestedPath (the file a request names, links not followed)", () => {
  const root = mkdtempSync(join(tmpdir(), "rye-reqpath-"));
  mkdirSync(join(root, "app", "node_modules", "pkg", "out"), { recursive: true });
  mkdirSync(join(root, "app", "src", "dir"), { recursive: true });
  writeFileSync(join(root, "app", "src", "x.js"), "");
  writeFileSync(join(root, "app", "src", "dir", "index.js"), "");
  writeFileSync(join(root, "app", "node_modules", "pkg", "out", "m.js"), "");
  const from = join(root, "app", "src");
  test.each([
    ["./x.js", join(from, "x.js")],
    ["./x", join(from, "x.js")],
    ["./dir", join(from, "dir", "index.js")],
    ["../src/x.js?query=1", join(from, "x.js")],
    [`file://${join(from, "x.js")}`, join(from, "x.js")],
    ["pkg/out/m.js", join(root, "app", "node_modules", "pkg", "out", "m.js")],
    ["pkg/out/m", join(root, "app", "node_modules", "pkg", "out", "m.js")],
    ["./missing.js", join(from, "missing.js")],
    ["node:fs", null],
    ["fs", null],
    ["#internal", null],
    ["data:text/javascript,1", null],
    ["\0virtual", null],
    ["nowhere/x.js", null],
  ])("%s -> %s", (request, expected) => {
    expect(requestedPath(request, from)).toBe(expected);
  });
});
