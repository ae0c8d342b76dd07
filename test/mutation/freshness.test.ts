// Freshness of verified output (src/verify/freshness.ts): the --not-before pin as a counter or a
// time, the refusal of output older than it, and the source list of the spaces `current` names
// against the one a build signed.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { compilerIdentity } from "../../src/sign/compiler-identity.js";
import { sha256Hex } from "../../src/sign/hash-region.js";
import { sourceListText } from "../../src/sign/source-tree.js";
import { currentProblem, currentSourceList, freshnessProblems, identityNow, identityProblem, notBeforeProblem, parseNotBefore, type BuildStamp } from "../../src/verify/freshness.js";

const MAY_1 = Date.UTC(2026, 4, 1);
// Built by this compiler into out/ of the project, without --emit-ts: only what `over` changes differs from a build now.
const stamp = (over: Partial<BuildStamp> = {}): BuildStamp => ({ time: "2026-05-01T00:00:00Z", counter: 7, sources: sha256Hex(sourceListText([])), compiler: compilerIdentity(), options: { emitTs: false, sourceRoot: "../" }, ...over });

describe("parseNotBefore", () => {
  test("a whole number, given as a number or as digits (spaces allowed around them), is a build counter", () => {
    expect(parseNotBefore(5)).toEqual({ counter: 5 });
    expect(parseNotBefore(0)).toEqual({ counter: 0 });
    expect(parseNotBefore("5")).toEqual({ counter: 5 });
    expect(parseNotBefore(" 12 ")).toEqual({ counter: 12 });
    expect(parseNotBefore("0")).toEqual({ counter: 0 });
    expect(parseNotBefore(Number.MAX_SAFE_INTEGER)).toEqual({ counter: Number.MAX_SAFE_INTEGER });
  });

  test("a negative, fractional or unsafe number is refused, naming it", () => {
    expect(parseNotBefore(-1)).toBe("--not-before -1 is not a whole number");
    expect(parseNotBefore(1.5)).toBe("--not-before 1.5 is not a whole number");
    expect(parseNotBefore("99999999999999999999")).toBe("--not-before 99999999999999999999 is not a whole number");
    expect(parseNotBefore(Number.MAX_SAFE_INTEGER + 1)).toMatch(/is not a whole number$/);
  });

  test("an ISO time or date is a time in ms; spaces around it are dropped", () => {
    expect(parseNotBefore("2026-05-01")).toEqual({ time: MAY_1 });
    expect(parseNotBefore("2026-05-01T00:00:00Z")).toEqual({ time: MAY_1 });
    expect(parseNotBefore(" 2026-05-01T00:00:00Z\n")).toEqual({ time: MAY_1 });
    expect(parseNotBefore("2026-05-01T02:00:00+02:00")).toEqual({ time: MAY_1 });
  });

  test("text that is neither is refused, quoted, with an example of each form", () => {
    expect(parseNotBefore("x5")).toBe('--not-before "x5" is neither an ISO time (2026-05-01T12:00:00Z) nor a build counter');
    expect(parseNotBefore("")).toBe('--not-before "" is neither an ISO time (2026-05-01T12:00:00Z) nor a build counter');
  });
});

describe("notBeforeProblem", () => {
  test("counters: accepted at or after the pin, else the exact refusal", () => {
    expect(notBeforeProblem(stamp({ counter: 7 }), 7, "out")).toBeNull();
    expect(notBeforeProblem(stamp({ counter: 8 }), "7", "out")).toBeNull();
    expect(notBeforeProblem(stamp({ counter: 6 }), 7, "out")).toBe(
      "Older than the pinned point: out was built with counter 6, before --not-before 7 (build counter, signed in its metadata)\n  Fix: rebuild with rye build (RYE_BUILD_COUNTER=7 or later), or restore the newer output",
    );
  });

  test("times: accepted at or after the pin, else the exact refusal with the pin in whole seconds", () => {
    expect(notBeforeProblem(stamp(), "2026-05-01", "out")).toBeNull();
    expect(notBeforeProblem(stamp(), "2026-04-30T23:59:59Z", "out")).toBeNull();
    expect(notBeforeProblem(stamp(), "2026-05-01T00:00:00.500Z", "out")).toBe(
      "Older than the pinned point: out was built at 2026-05-01T00:00:00Z, before --not-before 2026-05-01T00:00:00Z (build time, signed in its metadata)\n  Fix: rebuild with rye build (SOURCE_DATE_EPOCH at or after that time), or restore the newer output",
    );
    // A counter pin never reads the time, and a time pin never reads the counter.
    expect(notBeforeProblem(stamp({ time: "1970-01-01T00:00:00Z", counter: 9 }), 9, "out")).toBeNull();
    expect(notBeforeProblem(stamp({ counter: 0 }), "2026-01-01", "out")).toBeNull();
  });

  test("a pin that is neither is the problem itself", () => {
    expect(notBeforeProblem(stamp(), "soon", "out")).toBe('--not-before "soon" is neither an ISO time (2026-05-01T12:00:00Z) nor a build counter');
    expect(notBeforeProblem(stamp(), -3, "out")).toBe("--not-before -3 is not a whole number");
  });
});

const entry = (space: string, path: string, text: string) => ({ space, path, sha256: sha256Hex(text) });

describe("currentProblem", () => {
  const before = sourceListText([entry("project", ".ai/directives/x/a.md", "# A\n")]);
  const after = sourceListText([entry("project", ".ai/directives/x/a.md", "# A, edited\n")]);

  test("the same source list is no problem", () => {
    expect(currentProblem(stamp({ sources: sha256Hex(before), list: before }), before, "out", "/p")).toBeNull();
    expect(currentProblem(stamp({ sources: sha256Hex(before) }), before, "out", "/p")).toBeNull();
  });

  test("with the signed list, names each change", () => {
    expect(currentProblem(stamp({ sources: sha256Hex(before), list: before }), after, "out", "/p")).toBe(
      "Not built from the current sources of /p: out is output of other (older or newer) sources:\n  changed since the build: project .ai/directives/x/a.md\n  Fix: rebuild with rye build; without --current, rye verify accepts any complete output signed by a trusted key",
    );
  });

  test("each change on its own line", () => {
    const two = sourceListText([entry("project", ".ai/directives/x/a.md", "# A, edited\n"), entry("project", ".ai/directives/x/b.md", "# B\n")]);
    expect(currentProblem(stamp({ sources: sha256Hex(before), list: before }), two, "out", "/p")).toBe(
      "Not built from the current sources of /p: out is output of other (older or newer) sources:\n  added since the build: project .ai/directives/x/b.md\n  changed since the build: project .ai/directives/x/a.md\n  Fix: rebuild with rye build; without --current, rye verify accepts any complete output signed by a trusted key",
    );
  });

  test("without the list (a bundle signs only its hash), or when the lists show no change, gives both hashes", () => {
    const want = (sources: string) =>
      `Not built from the current sources of /p: out is output of other (older or newer) sources:\n  source tree sha256 ${sources} when built (2026-05-01T00:00:00Z), ${sha256Hex(after)} now\n  Fix: rebuild with rye build; without --current, rye verify accepts any complete output signed by a trusted key`;
    expect(currentProblem(stamp({ sources: sha256Hex(before) }), after, "out", "/p")).toBe(want(sha256Hex(before)));
    expect(currentProblem(stamp({ sources: "0".repeat(64), list: after }), after, "out", "/p")).toBe(want("0".repeat(64)));
  });
});

describe("the spaces `current` reads", () => {
  const base = mkdtempSync(join(tmpdir(), "rye-fresh-unit-"));
  const write = (root: string, rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  const project = join(base, "p");
  const user = join(base, "u");
  const otherUser = join(base, "u2");
  const system = join(base, "s");
  write(project, ".ai/directives/x/a.md", "# A\n");
  write(user, ".ai/directives/y/b.md", "# B\n");
  write(system, ".ai/directives/z/c.md", "# C\n");
  mkdirSync(otherUser, { recursive: true });
  const env = { USER_SPACE: otherUser };
  const a = entry("project", ".ai/directives/x/a.md", "# A\n");
  const b = entry("user", ".ai/directives/y/b.md", "# B\n");
  const c = entry("system:0", ".ai/directives/z/c.md", "# C\n");

  test("by default the output folder's parent, with USER_SPACE from the environment", async () => {
    expect(await currentSourceList({}, join(project, "out"), env, base)).toBe(sourceListText([a]));
    expect(await currentSourceList({}, join(project, "out"), { USER_SPACE: user }, base)).toBe(sourceListText([a, b]));
  });

  test("a project, user space and system spaces given, relative ones from the working folder", async () => {
    expect(await currentSourceList({ project: "p" }, join(base, "elsewhere", "out"), env, base)).toBe(sourceListText([a]));
    expect(await currentSourceList({ userSpace: user }, join(project, "out"), env, base)).toBe(sourceListText([a, b]));
    expect(await currentSourceList({ systems: ["s"] }, join(project, "out"), env, base)).toBe(sourceListText([a, c]));
  });

  test("freshnessProblems asks only what the options ask, and names the project it compared", async () => {
    const at = { label: "out", outputDir: join(project, "out"), env, cwd: base };
    const built = sourceListText([a]);
    const fresh = stamp({ sources: sha256Hex(built), list: built, counter: 3 });
    expect(await freshnessProblems(fresh, {}, at)).toEqual([]);
    expect(await freshnessProblems(fresh, { current: false }, at)).toEqual([]);
    expect(await freshnessProblems(fresh, { current: true, notBefore: 3 }, at)).toEqual([]);
    // Output of other sources passes when `current` is not asked for.
    const other = stamp({ sources: sha256Hex(sourceListText([])), list: sourceListText([]), counter: 3 });
    expect(await freshnessProblems(other, {}, at)).toEqual([]);
    expect(await freshnessProblems(other, { current: false, notBefore: 2 }, at)).toEqual([]);
    expect(await freshnessProblems(other, { current: true }, at)).toHaveLength(1);
    // An output folder outside the project has no declaration map source root.
    expect(await freshnessProblems({ ...fresh, options: { emitTs: false, sourceRoot: null } }, { current: { project } }, { ...at, outputDir: join(base, "out") })).toEqual([]);
    const stale = await freshnessProblems(fresh, { current: { userSpace: user }, notBefore: 4 }, at);
    expect(stale).toHaveLength(2);
    expect(stale[0]).toMatch(/^Older than the pinned point: out was built with counter 3, before --not-before 4 /);
    expect(stale[1]).toBe(
      `Not built from the current sources of ${project}: out is output of other (older or newer) sources:\n  added since the build: user .ai/directives/y/b.md\n  Fix: rebuild with rye build; without --current, rye verify accepts any complete output signed by a trusted key`,
    );
    const moved = await freshnessProblems(stamp({ sources: sha256Hex(built), list: built, options: { emitTs: false, sourceRoot: null } }), { current: { project: "p", systems: ["s"] } }, { ...at, outputDir: join(base, "x", "out") });
    expect(moved).toEqual([expect.stringMatching(new RegExp(`^Not built from the current sources of ${project}: .*\\n  added since the build: system:0 \\.ai/directives/z/c\\.md\\n`))]);
  });
});

// The compiler and options a build now would sign (decisions.md #26; docs/security-model.md class 5:
// each differing component named, format 3 refused by --current).
const FIX = "\n  Fix: rebuild with rye build (with --emit-ts if it was built with it); without --current, rye verify accepts any complete output signed by a trusted key";
const DIFFERS = "Not built by the compiler installed now with the options of a build now: out differs in";

describe("identityNow", () => {
  const base = mkdtempSync(join(tmpdir(), "rye-ident-unit-"));
  const project = join(base, "p");
  mkdirSync(project, { recursive: true });

  test("an output folder: this compiler, and the options a build into it would sign", () => {
    expect(identityNow({}, join(project, "out"), base, "output")).toEqual({ compiler: compilerIdentity(), options: { emitTs: false, sourceRoot: "../" } });
    expect(identityNow({ emitTs: true }, join(project, "out"), base, "output").options).toEqual({ emitTs: true, sourceRoot: "../" });
    expect(identityNow({ project }, join(base, "out"), base, "output").options).toEqual({ emitTs: false, sourceRoot: null });
  });

  test("a bundle holds no option-dependent file: no options", () => {
    expect(identityNow({ emitTs: true }, join(project, "out"), base, "bundle")).toEqual({ compiler: compilerIdentity(), options: null });
  });
});

describe("identityProblem", () => {
  const now = { compiler: compilerIdentity(), options: { emitTs: false, sourceRoot: "../" } };

  test("the same compiler and options are no problem", () => {
    expect(identityProblem(stamp(), now, "out")).toBeNull();
    expect(identityProblem(stamp({ options: undefined }), { ...now, options: null }, "out")).toBeNull();
  });

  test("format 3 metadata names no compiler: refused whatever else matches", () => {
    const want =
      "Not known to be built by the compiler installed now: out is output of an older rye (manifest format 3) whose signed metadata does not name the compiler that made it\n  Fix: rebuild with rye build";
    expect(identityProblem(stamp({ compiler: undefined }), now, "out")).toBe(want);
    expect(identityProblem(stamp({ compiler: undefined, options: undefined }), { ...now, options: null }, "out")).toBe(want);
  });

  test("each differing component on its own line, compiler before options", () => {
    const c = compilerIdentity();
    const built = stamp({ compiler: { ...c, code: "a".repeat(64) }, options: { emitTs: true, sourceRoot: "../" } });
    expect(identityProblem(built, now, "out")).toBe(
      `${DIFFERS}\n  compiler code: sha256 ${"a".repeat(64)} when built, ${c.code} installed now\n  option --emit-ts: on when built, off now${FIX}`,
    );
  });

  test("an output folder whose metadata binds no options is refused; a bundle's options are never compared", () => {
    expect(identityProblem(stamp({ options: undefined }), now, "out")).toBe(`${DIFFERS}\n  output options: not signed${FIX}`);
    expect(identityProblem(stamp({ options: { emitTs: true, sourceRoot: null } }), { ...now, options: null }, "out")).toBeNull();
  });

  test("freshnessProblems compares the identity of an output folder by default, and a bundle's without options", async () => {
    const base = mkdtempSync(join(tmpdir(), "rye-ident-fresh-"));
    const project = join(base, "p");
    mkdirSync(project, { recursive: true });
    const at = { label: "out", outputDir: join(project, "out"), env: { USER_SPACE: join(base, "none") }, cwd: base };
    const fresh = stamp();
    expect(await freshnessProblems(fresh, { current: true }, at)).toEqual([]);
    expect(await freshnessProblems(stamp({ options: undefined }), { current: true }, at)).toEqual([`${DIFFERS}\n  output options: not signed${FIX}`]);
    expect(await freshnessProblems(stamp({ options: undefined }), { current: true }, { ...at, kind: "bundle" })).toEqual([]);
    expect(await freshnessProblems(stamp({ options: undefined }), { current: true }, { ...at, kind: "output" })).toHaveLength(1);
    expect(await freshnessProblems(stamp({ compiler: undefined }), { current: true }, { ...at, kind: "bundle" })).toEqual([expect.stringMatching(/^Not known to be built by the compiler installed now: out is output of an older rye \(manifest format 3\)/)]);
  });
});

// Equivalent mutant left alive: `at.kind ?? "output"` as `?? ""`: identityNow treats every kind but
// "bundle" as an output folder, so "" and "output" are the same.
