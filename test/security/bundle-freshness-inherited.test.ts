// A bundle's build metadata is inherited, never minted: every build-describing field of its signed
// header line is copied from the verified root of the output it wraps, never read from the
// environment or the clock of `rye bundle`. And an older out/ restored before `rye bundle` is not
// wrapped under a new stamp: rye bundle builds first, so what it wraps is what that build signed.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { cleanEnv, rye, tempDir, makeGreetProject } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const PREFIX = "// @rye-build ";

function project() {
  const base = tempDir("rye-inherit-");
  const root = join(base, "proj");
  makeGreetProject(root);
  return { base, root, home: join(outsideOf(base), "home") };
}

const header = (bundle: string) => JSON.parse(readFileSync(bundle, "utf8").split("\n").find((l) => l.startsWith(PREFIX))!.slice(PREFIX.length));
const rootOf = (root: string) => JSON.parse(readFileSync(join(root, "out", "manifest.json"), "utf8"));
/** The build-describing fields of a verified root, as a bundle header names them. */
const fieldsOf = (m: { version: unknown; generated_at: unknown; build: Record<string, unknown> }) => ({ version: m.version, generated_at: m.generated_at, counter: m.build.counter, sources: m.build.sources, ...(m.build.compiler ? { compiler: m.build.compiler } : {}) });

describe("bundling output that is already up to date, at a later time", () => {
  // No SOURCE_DATE_EPOCH: the build signs its default time; the second run finds nothing changed and does not rebuild.
  const p = project();
  const env = cleanEnv({ USER_SPACE: p.home, RYE_BUILD_COUNTER: "7" });
  expect(rye(p.root, env, "build").status).toBe(0);
  const before = rootOf(p.root);
  const rootMtime = statSync(join(p.root, "out", "manifest.json")).mtimeMs;
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2100);
  const r = rye(p.root, env, "bundle");
  const bundle = join(p.root, "out", "bundle.mjs");

  test("the build was not redone (its root is the one written before)", () => {
    expect(r.status, r.stderr).toBe(0);
    expect(statSync(join(p.root, "out", "manifest.json")).mtimeMs).toBe(rootMtime);
  });

  test.each(Object.keys(fieldsOf(before)))("the header's %s is the root's, not the bundling run's", (field) => {
    expect(header(bundle)[field]).toEqual((fieldsOf(before) as Record<string, unknown>)[field]);
  });

  test("the header names no field the root does not describe, and no time read from the clock of rye bundle", () => {
    expect(Object.keys(header(bundle)).sort()).toEqual(Object.keys(fieldsOf(before)).sort());
    // Without SOURCE_DATE_EPOCH the build signs its reproducible default; a bundler that read the clock would differ.
    expect(Math.abs(Date.parse(header(bundle).generated_at) - Date.now())).toBeGreaterThan(86_400_000);
    expect(rye(p.root, env, "verify", "--not-before", before.generated_at, "out/bundle.mjs").status).toBe(0);
    const later = new Date(Date.parse(before.generated_at) + 1000).toISOString().replace(/\.\d+Z$/, "Z");
    expect(rye(p.root, env, "verify", "--not-before", later, "out/bundle.mjs").status).toBe(1);
  });
});

describe("an older out/ restored before rye bundle", () => {
  const p = project();
  const old = cleanEnv({ USER_SPACE: p.home, RYE_BUILD_COUNTER: "7", SOURCE_DATE_EPOCH: "1700000000" });
  expect(rye(p.root, old, "build").status).toBe(0);
  const oldSigned = new Map(readdirSync(join(p.root, "out"), { recursive: true }).map(String).filter((f) => f.endsWith(".js")).map((f) => [f, readFileSync(join(p.root, "out", f), "utf8")]));
  const now = cleanEnv({ USER_SPACE: p.home, RYE_BUILD_COUNTER: "100", SOURCE_DATE_EPOCH: "1800000000" });
  const r = rye(p.root, now, "bundle");
  const bundle = join(p.root, "out", "bundle.mjs");

  test("is rebuilt, and the bundle describes that build, copied from its root", () => {
    expect(r.status, r.stderr).toBe(0);
    for (const [f, text] of oldSigned) expect(readFileSync(join(p.root, "out", f), "utf8"), f).not.toBe(text);
    expect(header(bundle)).toEqual(fieldsOf(rootOf(p.root)));
    expect(header(bundle)).toMatchObject({ counter: 100, generated_at: "2027-01-15T08:00:00Z" });
  });

  test("its counter pins: 101 refuses, 100 passes", () => {
    expect(rye(p.root, now, "verify", "--not-before", "101", "out/bundle.mjs").status).toBe(1);
    expect(rye(p.root, now, "verify", "--not-before", "100", "out/bundle.mjs").status).toBe(0);
  });
});
