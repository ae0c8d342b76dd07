// The spawn guard's scan for checkout paths in a caller's value is bounded by construction: the
// text is split into words once, each distinct word is judged once, and a path's missing
// components are resolved by a loop capped at MAX_PATH_COMPONENTS (src/bundle/checkout.ts), past
// which the word is refused as a mention. Generated: values of about 1 MB made of a checkout root
// repeated and of `/a` repeated 100 000 times, through a launcher that takes them as the program's
// environment (refused, naming the argument) and as a shell script's operand (data: accepted).
// Each must be judged without a JS error; a refused start leaves no marker. A property checks that
// the word scan finds the same paths as the former scan of the text for every root.
import { existsSync, mkdirSync, realpathSync, lstatSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { checkoutOf, MAX_PATH_COMPONENTS } from "../../src/bundle/checkout.js";
import { checkoutMentions, type MentionScope } from "../../src/bundle/checkout-mentions.js";
import { guardedExeca } from "../../src/bundle/guard-spawn.js";
import type { Execa } from "../../src/runtime/exec/run-process.js";
import { tempDir } from "./helpers.js";

const base = realpathSync(tempDir("rye-mention-bounds-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const repo = join(base, "repo");
const proj = join(repo, "proj");
for (const dir of [join(repo, ".git"), join(proj, ".ai"), join(proj, "out"), join(proj, "ci"), join(base, "markers")]) mkdirSync(dir, { recursive: true });
writeFileSync(join(proj, "out", "manifest.json"), "{}");
writeFileSync(join(proj, "ci", "run.sh"), "#!/bin/sh\n");
writeFileSync(join(proj, "ci", "vouched.sh"), "#!/bin/sh\n");
const checkout = checkoutOf({ bundle: join(proj, "out", "bundle.mjs"), cwd: proj, env: {} });
const scope: MentionScope = { checkout, vouched: new Set([join(proj, "ci", "vouched.sh")]), cwd: proj };

const MB = 1_000_000;
const repeated = (word: string, size = MB) => `${word} `.repeat(Math.ceil(size / (word.length + 1)));
const deep = "/a".repeat(100_000);
const VALUES = {
  "the checkout root repeated": repeated(proj),
  "`-I<root>/ci` repeated": repeated(`-I${proj}/ci`),
  "`/a` x 100 000": deep,
  "`/a` x 100 000, then the root repeated": `${deep} ${repeated(proj, MB - deep.length)}`,
};

let n = 0;
/** The guarded start of `file args`; the started "process" leaves a marker. */
function start(file: string, args: string[]): { marker: string; error: string | null } {
  const marker = join(base, "markers", `m${n++}`);
  const inner: Execa = () => {
    writeFileSync(marker, "");
    return Promise.resolve({ exitCode: 0, stdout: "", stderr: "" }) as unknown as ReturnType<Execa>;
  };
  try {
    void guardedExeca(inner, { checkout, planFiles: [], optIn: "pass --trust-checkout" })(file, args, { cwd: proj, env: { PATH: "/usr/bin:/bin" } });
    return { marker, error: null };
  } catch (error) {
    return { marker, error: (error as Error).message };
  }
}

describe("a caller's value of about 1 MB is judged by the bundle-run guard, without a JS error", () => {
  for (const [name, value] of Object.entries(VALUES)) {
    it(`env FOO=<${name}> true: refused, naming the argument`, () => {
      const { marker, error } = start("/usr/bin/env", [`FOO=${value}`, "true"]);
      expect(error).not.toMatch(/Maximum call stack|RangeError/);
      expect(error).toMatch(/^refused: argv\[1\] "FOO=/);
      expect(error).toMatch(/gives the program FOO naming .*pass --trust-checkout/s);
      expect(existsSync(marker)).toBe(false);
    }, 60_000);

    it(`bash -c 'printf %s "$1"' sh <${name}>: a script's operand is data, accepted`, () => {
      const { marker, error } = start("/bin/bash", ["-c", 'printf %s "$1" | wc -c', "sh", value]);
      expect(error).toBeNull();
      expect(existsSync(marker)).toBe(true);
    }, 60_000);
  }

  it("the mentions found: the root once, or the too-deep word as a refusal", () => {
    expect(checkoutMentions(VALUES["the checkout root repeated"], scope)).toEqual([proj]);
    expect(checkoutMentions(VALUES["`-I<root>/ci` repeated"], scope)).toEqual([join(proj, "ci")]);
    const [tooDeep, ...rest] = checkoutMentions(deep, scope);
    expect(rest).toEqual([]);
    expect(tooDeep).toContain(`more than ${MAX_PATH_COMPONENTS} components`);
    expect(checkoutMentions(VALUES["`/a` x 100 000, then the root repeated"], scope)).toEqual([proj, tooDeep]);
  }, 60_000);

  it("a path just under the component cap outside the checkout is no mention", () => {
    expect(checkoutMentions("/a".repeat(MAX_PATH_COMPONENTS - 2), scope)).toEqual([]);
  });
});

// The former scan: for every root, each occurrence in the text that starts a path (after a separator,
// the text's start or an option's letters), then every word on its own.
const SEPARATOR = /[\s:;,='"`()<>|&]/;
const WORDS = /[\s:;,='"`()<>|&]+/;
const OPTION_PREFIX = /^-{1,2}[A-Za-z][A-Za-z0-9-]*$/;
function referenceMentions(text: string, s: MentionScope): string[] {
  const vouched = (path: string) => {
    const named = resolve(s.cwd, path);
    if (s.vouched.has(named)) return true;
    try {
      return s.vouched.has(realpathSync(named));
    } catch {
      return false;
    }
  };
  const found: string[] = [];
  for (const root of s.checkout.roots) {
    for (let at = text.indexOf(root); at >= 0; at = text.indexOf(root, at + 1)) {
      const after = text[at + root.length];
      if (after !== undefined && after !== "/" && !SEPARATOR.test(after)) continue;
      let from = at;
      while (from > 0 && !SEPARATOR.test(text[from - 1]!)) from--;
      const before = text.slice(from, at);
      if (before !== "" && !OPTION_PREFIX.test(before)) continue;
      let end = at + root.length;
      while (end < text.length && !SEPARATOR.test(text[end]!)) end++;
      if (!vouched(text.slice(at, end))) found.push(text.slice(at, end));
    }
  }
  for (const word of text.split(WORDS)) {
    if (!word) continue;
    const slash = word.indexOf("/");
    const absolute = isAbsolute(word) ? word : OPTION_PREFIX.test(word.slice(0, slash)) && slash > 0 ? word.slice(slash) : null;
    if (absolute !== null) {
      if (s.checkout.contains(absolute) && !vouched(absolute)) found.push(absolute);
      continue;
    }
    const path = resolve(s.cwd, word);
    let present = true;
    try {
      lstatSync(path);
    } catch {
      present = false;
    }
    if (present && s.checkout.contains(path) && !vouched(path)) found.push(word);
  }
  return [...new Set(found)];
}

describe("the word scan finds what the former scan of the text found", () => {
  const pieces = [...checkout.roots, proj + "/ci/run.sh", proj + "/ci/vouched.sh", proj + "x", "/elsewhere", "/a",
    "-I", "--rcfile", "-", "ci", "ci/run.sh", "ci/vouched.sh", "run.sh", "x", "/", " ", ":", "=", ",", "'", '"', "(", "|", "\t"];
  it("on random texts of roots, words and separators", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        expect(checkoutMentions(text, scope)).toEqual(referenceMentions(text, scope));
      }),
      { numRuns: 400 },
    );
  });
});
