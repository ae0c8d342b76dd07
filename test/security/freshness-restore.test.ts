// Restore-older-output attacks (decisions.md #26): an older, complete, validly signed out/ restored
// over a newer one. Without a freshness flag it verifies (a signature says who built it, not when);
// `rye verify --current` and `--not-before` refuse it, and a tree mixing two builds fails always.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { cleanEnv, REPO, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const ITEMS = ["greet", "count_words"];
const GREET = ".ai/directives/examples/greet.md";

/** A project of two directives (the repository's examples) and a user space outside it. */
function project(): { root: string; env: NodeJS.ProcessEnv; base: string } {
  const base = tempDir("rye-fresh-");
  const root = join(base, "proj");
  mkdirSync(join(root, ".ai", "directives", "examples"), { recursive: true });
  for (const id of ITEMS) cpSync(join(REPO, ".ai", "directives", "examples", `${id}.md`), join(root, ".ai", "directives", "examples", `${id}.md`));
  return { root, base, env: cleanEnv({ USER_SPACE: join(outsideOf(base), "home") }) };
}

function build(root: string, env: NodeJS.ProcessEnv): void {
  const r = rye(root, env, "build");
  expect(r.status, r.stderr).toBe(0);
}

function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix)).flatMap((n) => {
    const rel = prefix ? `${prefix}/${n}` : n;
    if (rel === ".rye" || rel === "rye-files.json") return [];
    return statSync(join(dir, rel)).isDirectory() ? filesUnder(dir, rel) : [rel];
  });
}

/** v1 built and kept as `old`; greet.md edited; v2 built into out/. */
function twoBuilds() {
  const p = project();
  build(p.root, p.env);
  const old = join(p.base, "old-out");
  cpSync(join(p.root, "out"), old, { recursive: true });
  writeFileSync(join(p.root, GREET), `${readFileSync(join(p.root, GREET), "utf8")}\nOne more line.\n`);
  build(p.root, p.env);
  const fresh = join(p.base, "new-out");
  cpSync(join(p.root, "out"), fresh, { recursive: true });
  const restore = (from: string) => {
    rmSync(join(p.root, "out"), { recursive: true, force: true });
    cpSync(from, join(p.root, "out"), { recursive: true });
  };
  return { ...p, old, fresh, restore };
}

describe("an older complete output restored over a newer one", () => {
  const c = twoBuilds();

  test("verifies without a freshness flag (documented), and fails rye verify --current naming the changed source", () => {
    c.restore(c.old);
    expect(rye(c.root, c.env, "verify", "out").status).toBe(0);
    const r = rye(c.root, c.env, "verify", "--current", "out");
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^stale +manifest +out\/manifest\.json /m);
    expect(r.stdout).toContain(`Not built from the current sources of ${c.root}: out/manifest.json is output of other (older or newer) sources:`);
    expect(r.stdout).toContain(`changed since the build: project ${GREET}`);
    expect(r.stdout).toMatch(/Fix: rebuild with rye build/);
    // The newer output is current.
    c.restore(c.fresh);
    const ok = rye(c.root, c.env, "verify", "--current", "out");
    expect(ok.status, ok.stdout).toBe(0);
  });

  test("sources added or removed since the build are named too", () => {
    c.restore(c.fresh);
    const extra = join(c.root, ".ai", "directives", "examples", "extra.md");
    cpSync(join(c.root, GREET), extra);
    const added = rye(c.root, c.env, "verify", "--current", "out");
    rmSync(extra);
    const count = join(c.root, ".ai", "directives", "examples", "count_words.md");
    const kept = readFileSync(count);
    rmSync(count);
    const removed = rye(c.root, c.env, "verify", "--current", "out");
    writeFileSync(count, kept);
    expect(added.status).toBe(1);
    expect(added.stdout).toContain("added since the build: project .ai/directives/examples/extra.md");
    expect(removed.status).toBe(1);
    expect(removed.stdout).toContain("removed since the build: project .ai/directives/examples/count_words.md");
  });

  test("every file that differs between the two builds, put into the other build's tree, fails always (a mixed tree)", () => {
    const differing = filesUnder(c.fresh).filter((rel) => {
      try {
        return !readFileSync(join(c.old, rel)).equals(readFileSync(join(c.fresh, rel)));
      } catch {
        return true;
      }
    });
    // The edited item's module and declaration, its shard, the registries that embed it, the source list, the root.
    expect(differing).toEqual(expect.arrayContaining(["manifest.json", "manifest/sources.txt", "manifest/directives%2Fexamples.json", "directives/examples/greet.js"]));
    for (const [from, into] of [[c.old, c.fresh], [c.fresh, c.old]] as const) {
      for (const rel of differing) {
        c.restore(into);
        cpSync(join(from, rel), join(c.root, "out", rel));
        const r = rye(c.root, c.env, "verify", "out");
        expect(r.status, `${rel} from ${relative(c.base, from)}`).toBe(1);
        // Located: the file itself, or (for the root) the manifest, is named.
        expect(r.stdout, rel).toContain(rel === "manifest.json" ? "out/" : `out/${rel}`);
      }
    }
  });

  test("the metadata is signed: editing the source hash, counter, time or version in the root fails its signature", () => {
    const root = JSON.parse(readFileSync(join(c.fresh, "manifest.json"), "utf8"));
    const edits: [string, (m: typeof root) => void][] = [
      ["build.sources", (m) => (m.build.sources = JSON.parse(readFileSync(join(c.old, "manifest.json"), "utf8")).build.sources)],
      ["build.counter", (m) => (m.build.counter = 99)],
      ["generated_at", (m) => (m.generated_at = "2030-01-01T00:00:00Z")],
      ["version", (m) => (m.version = "9.9.9")],
    ];
    for (const [field, edit] of edits) {
      c.restore(c.fresh);
      const m = JSON.parse(readFileSync(join(c.fresh, "manifest.json"), "utf8"));
      edit(m);
      writeFileSync(join(c.root, "out", "manifest.json"), `${JSON.stringify(m, null, 1)}\n`);
      const r = rye(c.root, c.env, "verify", "out");
      expect(r.status, field).toBe(1);
      expect(r.stdout, field).toContain("Content modified since signing: out/manifest.json");
    }
    // The source list is bound by its sha256: the old list beside the new root fails, named.
    c.restore(c.fresh);
    cpSync(join(c.old, "manifest", "sources.txt"), join(c.root, "out", "manifest", "sources.txt"));
    const r = rye(c.root, c.env, "verify", "--current", "out");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("out/manifest/sources.txt");
  });
});

describe("--not-before: a pinned build time or counter", () => {
  const p = project();
  const T = Date.parse("2026-05-01T12:00:00Z") / 1000;
  const r0 = rye(p.root, { ...p.env, SOURCE_DATE_EPOCH: String(T), RYE_BUILD_COUNTER: "3" }, "build");
  const iso = (s: number) => `${new Date(s * 1000).toISOString().slice(0, 19)}Z`;

  test.each([
    ["0", true], ["2", true], ["3", true], ["4", false], ["1000", false],
    [iso(T - 86400), true], [iso(T - 1), true], [iso(T), true], [iso(T + 1), false], ["2026-05-01", true], ["2026-05-02", false],
  ])("--not-before %s: accepted %s", (pin, accepted) => {
    expect(r0.status, r0.stderr).toBe(0);
    const r = rye(p.root, p.env, "verify", "--not-before", pin, "out");
    expect(r.status, r.stdout).toBe(accepted ? 0 : 1);
    if (!accepted) {
      expect(r.stdout).toMatch(/^stale +manifest +out\/manifest\.json /m);
      expect(r.stdout).toMatch(/Older than the pinned point: out\/manifest\.json was built (with counter 3|at 2026-05-01T12:00:00Z), before --not-before/);
    }
  });

  test("a pin that is neither a time nor a counter is a usage error", () => {
    const r = rye(p.root, p.env, "verify", "--not-before", "yesterday", "out");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--not-before "yesterday" is neither an ISO time');
  });
});
