// A one-shot build keeps no source text as a string: it records each file's size and sha256 when it
// first reads it, and keeps its bytes (up to a budget) to decode where it parses it. A file edited in
// between is then compiled as the build read it, under the fingerprint of that text, and the next
// build sees the edit. Beyond the budget a file is read again where it is parsed, and one edited in
// between must fail the build (RYE8002) with nothing written, never be compiled as its new text under
// its old fingerprint. What the build needs of every source first (fingerprints) must be right
// either way.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import type { Io } from "../../src/cli/io.js";
import { buildProject } from "../../src/builder/build-project.js";
import { spacesFrom } from "../../src/project/read-spaces.js";
import { generateKeyPair, loadSigningKey, signingKeyFrom, writeKeyPair } from "../../src/sign/keys.js";
import { signItem } from "../../src/sign/sign-item.js";
import { plainDirective, writeTree } from "../helpers/cli.js";
import { outsideOf } from "../helpers/outside.js";

const base = mkdtempSync(join(tmpdir(), "rye-edited-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const env = { USER_SPACE: join(outsideOf(base), "user"), RYE_SIGNING_KEY_DIR: join(base, "keys") };
const sink = { write: () => true, isTTY: false } as unknown as Io["stdout"];

const directive = (name: string, body?: string) => plainDirective(name, body);
const project = (name: string, files: Record<string, string>): string => writeTree(join(base, name), files);

function build(dir: string, onProgress?: (done: number) => void, keptSourceBytes?: number) {
  const spaces = spacesFrom(dir, {}, dir, env);
  return buildProject({ project: dir, outDir: join(dir, "out"), spaces, jobs: 1, onProgress, keptSourceBytes }, { stdout: sink, stderr: sink, cwd: dir, env });
}

/**
 * Builds `dir`, editing `.ai/directives/c.md` after the first item (before c is parsed: the text it
 * would compile is then not the one fingerprinted); fails unless the edit happened.
 */
function buildEditingC(dir: string, keptSourceBytes?: number) {
  let edited = false;
  const r = build(dir, () => {
    if (!edited) writeFileSync(join(dir, ".ai/directives/c.md"), directive("c", "Do another thing, now {input:missing}."));
    edited = true;
  }, keptSourceBytes);
  expect(edited).toBe(true);
  return r;
}

describe("a source edited while a one-shot build runs", () => {
  test("is compiled as the build read it, and the next build compiles the edit", () => {
    const dir = project("kept", { ".ai/directives/a.md": directive("a"), ".ai/directives/b.md": directive("b"), ".ai/directives/c.md": directive("c") });
    const r = buildEditingC(dir);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(r.written).toBeGreaterThan(0);
    expect(readFileSync(join(dir, "out/directives/c.js"), "utf8")).not.toContain("another thing");
    const again = build(dir);
    expect(again.rebuilt).toBe(1);
    expect(again.diagnostics.map((d) => d.code)).toContain("RYE2001");
  });

  test("past the bytes a build keeps, fails the build at that file with RYE8002 and writes nothing", () => {
    const dir = project("edited", { ".ai/directives/a.md": directive("a"), ".ai/directives/b.md": directive("b"), ".ai/directives/c.md": directive("c") });
    const r = buildEditingC(dir, 0);
    const failure = r.diagnostics.filter((d) => d.code === "RYE8002");
    expect(failure.map((d) => [d.loc?.source, d.message])).toEqual([[".ai/directives/c.md", expect.stringContaining("changed while the build was reading it")]]);
    expect(r.written).toBe(0);
    expect(existsSync(join(dir, "out"))).toBe(false);
    // Built again, the new text is what is compiled (its undeclared input is reported).
    const again = build(dir);
    expect(again.diagnostics.map((d) => d.code)).toContain("RYE2001");
    expect(again.diagnostics.map((d) => d.code)).not.toContain("RYE8002");
  });

  test("never takes the build timestamp from a source's signature line (its time is not under the signature), even one this machine's key signed", () => {
    if (!existsSync(join(env.RYE_SIGNING_KEY_DIR, "private_key.pem"))) writeKeyPair(env.RYE_SIGNING_KEY_DIR, generateKeyPair());
    const key = loadSigningKey(env.RYE_SIGNING_KEY_DIR);
    const signed = signItem(directive("s"), "directive", key, "2026-05-06T07:08:09Z", "s.md");
    const dir = project("stamped", { ".ai/directives/s.md": signed, ".ai/directives/plain.md": directive("plain") });
    const r = build(dir);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const module = readFileSync(join(dir, "out/directives/plain.js"), "utf8");
    expect(module.split("\n")[0]).toMatch(/^\/\/ rye:signed:1970-01-01T00:00:00Z:/);
  });

  test("reports a signed source edited after signing (RYE5001), its signature read from the first read", () => {
    const key = signingKeyFrom(generateKeyPair().privatePem);
    const signed = signItem(directive("s"), "directive", key, "2026-05-06T07:08:09Z", "s.md");
    const dir = project("stale", { ".ai/directives/s.md": signed.replace("s for the tests.", "s, edited after signing.") });
    const r = build(dir);
    expect(r.diagnostics.map((d) => d.code)).toContain("RYE5001");
  });
});
