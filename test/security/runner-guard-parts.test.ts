// The runner guard's parts, in process: the files a piece of evaluated code is named by (a
// sourceURL, a vm filename, an import.meta stand-in), and the token that tells a Vitest worker the
// Vite plugin feeds it. The whole guard runs in real processes in load-paths-function-runners,
// load-paths-vite-ssr and load-paths-vitest-token.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { fileOfName, metaFiles, sourceUrlFiles } from "../../src/register/evaluated-file.js";
import { markRunnerVerified, RUNNER_VERIFIED, runnerUnverified } from "../../src/register/runner-verified.js";
import { bookkeepingFor } from "../../src/cache/bookkeeping-secret.js";

const dir = mkdtempSync(join(tmpdir(), "rye-runner-names-"));
const file = join(dir, "real.js");
const link = join(dir, "link.js");
const spaced = join(dir, "a b.js");

beforeAll(() => {
  writeFileSync(file, "");
  writeFileSync(spaced, "");
  symlinkSync(file, link);
});

describe("fileOfName", () => {
  test.each([
    ["an absolute path", file, file],
    ["a file URL", pathToFileURL(file).href, file],
    ["a query", `${file}?import&t=1`, file],
    ["?v=", `${file}?v=1a2b`, file],
    ["a hash", `${file}#x`, file],
    ["a query spanning lines", `${file}?a\nb`, file],
    ["percent-escaped whitespace", join(dir, "a%20b.js"), spaced],
    ["a link, resolved", link, file],
    ["a file that does not exist, as named", join(dir, "none.js"), join(dir, "none.js")],
    ["a colon inside a path (no scheme)", join(dir, "ab:c.js"), join(dir, "ab:c.js")],
  ])("%s", (_, name, expected) => {
    expect(fileOfName(name)).toBe(expected);
  });

  test("a relative name is taken from the working directory given", () => {
    expect(fileOfName("real.js", dir)).toBe(file);
    expect(fileOfName("./real.js?x", dir)).toBe(file);
  });

  test("a malformed escape is the name as written", () => {
    expect(fileOfName(join(dir, "a%zz.js"))).toBe(join(dir, "a%zz.js"));
  });

  test.each([["empty", ""], ["virtual", "\0virtual:x"], ["node:", "node:fs"], ["http", "http://host/x.js"], ["vm", "vm:module(0)"], ["webpack", "webpack-internal:///./x.js"], ["a file URL of another host", "file://host/x.js"], ["only a query", "?x"]])("no file: %s", (_, name) => {
    expect(fileOfName(name)).toBeNull();
  });
});

describe("sourceUrlFiles", () => {
  test("text without one costs a search and names nothing", () => {
    expect(sourceUrlFiles("return 1")).toEqual([]);
  });

  test("every comment is read, in each form", () => {
    const text = `a\n//# sourceURL=${file}\nb //@ sourceURL=${pathToFileURL(spaced).href}\n/*# sourceURL=${link} */\n//#sourceURL = ${file}?v=1`;
    expect(sourceUrlFiles(text)).toEqual([file, spaced, file, file]);
  });

  test("a name ends at whitespace, a quote or a star", () => {
    expect(sourceUrlFiles(`//# sourceURL=${file}"x`)).toEqual([file]);
    expect(sourceUrlFiles(`//# sourceURL=${file}'x`)).toEqual([file]);
    expect(sourceUrlFiles(`//# sourceURL=${file}\`x`)).toEqual([file]);
    expect(sourceUrlFiles(`/*# sourceURL=${file}*/`)).toEqual([file]);
  });

  test("names that are no file are left out", () => {
    expect(sourceUrlFiles("//# sourceURL=webpack-internal:///x.js\n//# sourceURL=\0v")).toEqual([]);
    expect(sourceUrlFiles("a sourceURL mentioned")).toEqual([]);
  });
});

describe("metaFiles", () => {
  test("an own url that is a file URL, and an own absolute filename", () => {
    expect(metaFiles([{ url: pathToFileURL(file).href }])).toEqual([file]);
    expect(metaFiles([1, "x", null, undefined, { filename: link }])).toEqual([file]);
    expect(metaFiles([{ url: pathToFileURL(link).href, filename: spaced }])).toEqual([file, spaced]);
  });

  test.each([
    ["an http url", { url: "http://host/x.js" }],
    ["a relative filename", { filename: "x.js" }],
    ["a filename that is no string", { filename: 1 }],
    ["a url that is no string", { url: new URL(pathToFileURL(file).href) }],
    ["an inherited url", Object.create({ url: pathToFileURL(file).href }) as object],
    ["a string argument", pathToFileURL(file).href],
    ["a url that is a bare path", { url: "real.js" }],
    ["a file URL that names no local file", { url: "file://host/x.js" }],
  ])("names nothing: %s", (_, arg) => {
    expect(metaFiles([arg])).toEqual([]);
  });

  test("a getter is never run", () => {
    let ran = false;
    const meta = {
      get url() {
        ran = true;
        return pathToFileURL(file).href;
      },
      get filename() {
        ran = true;
        return file;
      },
    };
    expect(metaFiles([meta])).toEqual([]);
    expect(ran).toBe(false);
  });
});

describe("the token that tells a runner the plugin feeds it", () => {
  const KEY = Symbol.for("rye-build.runner-verified");
  const saved = { space: process.env.USER_SPACE, token: process.env[RUNNER_VERIFIED] };
  const space = mkdtempSync(join(tmpdir(), "rye-runner-space-"));
  process.env.USER_SPACE = space;
  const secret = () => bookkeepingFor(process.cwd(), process.env).secret!;
  const tokenFor = (pid: number, key: Buffer | string) => `${pid}.${createHmac("sha256", key).update(`rye-build runner verified\0${pid}`).digest("hex")}`;

  afterEach(() => {
    delete (globalThis as Record<symbol, unknown>)[KEY];
    process.env.USER_SPACE = space;
    if (saved.token === undefined) delete process.env[RUNNER_VERIFIED];
    else process.env[RUNNER_VERIFIED] = saved.token;
  });
  afterAll(() => {
    if (saved.space === undefined) delete process.env.USER_SPACE;
    else process.env.USER_SPACE = saved.space;
  });

  test("nothing set: not verified", () => {
    delete process.env[RUNNER_VERIFIED];
    expect(runnerUnverified()).toBe("nothing verified it");
    process.env[RUNNER_VERIFIED] = "";
    expect(runnerUnverified()).toBe("nothing verified it");
  });

  test("the plugin's mark: verified in this process, and its token holds for this process and its children", () => {
    markRunnerVerified();
    expect(runnerUnverified()).toBeNull();
    const token = process.env[RUNNER_VERIFIED]!;
    expect(token).toBe(tokenFor(process.pid, secret()));
    delete (globalThis as Record<symbol, unknown>)[KEY];
    expect(runnerUnverified()).toBeNull();
    process.env[RUNNER_VERIFIED] = tokenFor(process.ppid, secret());
    expect(runnerUnverified()).toBeNull();
  });

  test.each([
    ["the bare variable", () => "1"],
    ["another process's id", () => tokenFor(process.pid + 100000, secret())],
    ["another secret", () => tokenFor(process.pid, "attacker")],
    ["a MAC of zeros", () => `${process.pid}.${"0".repeat(64)}`],
    ["upper-case hex", () => tokenFor(process.pid, secret()).toUpperCase()],
    ["something after it", () => `${tokenFor(process.pid, secret())}0`],
    ["something before it", () => ` ${tokenFor(process.pid, secret())}`],
    ["a short MAC", () => tokenFor(process.pid, secret()).slice(0, -2)],
  ])("refused: %s", (_, token) => {
    process.env[RUNNER_VERIFIED] = token();
    expect(runnerUnverified()).toMatch(/RYE_VITE_PLUGIN_VERIFIES is set, but not by the rye-build\/vite plugin/);
  });

  test("a user space inside the project has no secret: the mark is kept in memory, and no token is handed on or accepted", () => {
    // Inside the working directory's project (its git working tree), as a checkout could carry one.
    const inside = mkdtempSync(join(process.cwd(), "node_modules", ".rye-runner-space-"));
    try {
      process.env.USER_SPACE = inside;
      process.env[RUNNER_VERIFIED] = "stale";
      markRunnerVerified();
      expect(process.env[RUNNER_VERIFIED]).toBeUndefined();
      expect(runnerUnverified()).toBeNull();
      delete (globalThis as Record<symbol, unknown>)[KEY];
      process.env[RUNNER_VERIFIED] = tokenFor(process.pid, "anything");
      expect(runnerUnverified()).not.toBeNull();
    } finally {
      rmSync(inside, { recursive: true, force: true });
    }
  });
});
