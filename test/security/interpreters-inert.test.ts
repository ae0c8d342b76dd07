import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { isInert } from "../../src/runtime/exec/inert.js";
import { hostileValue, plan, run, which } from "./interpreters-helpers.js";

// Class 1: a value spliced into the text of a program rye cannot read (python -c, node -e, perl -e,
// an awk or sed program) must be inert — ASCII letters, digits and _, at most 4096 characters — or
// the run is refused before anything starts, naming the placeholder. Any punctuation can end a token
// somewhere: Perl's quote-like operators take every punctuation character as delimiter
// (`system+q:touch:,q:f:`, `qx.id.`, `qx-id-`), and `/` ends a sed `s///` whose flags then execute.

const dir = mkdtempSync(join(tmpdir(), "rye-interp-inert-"));
const MARKER = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
/** The documented rule, written out independently of the implementation's regular expression. */
const spec = (v: string) => v.length <= 4096 && [...v].every((c) => SET.includes(c));

describe("the inert set", () => {
  it("accepts exactly the documented values (property over arbitrary Unicode)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary", maxLength: 20 }), fc.stringMatching(/^[-A-Za-z0-9_./:,+=]{0,20}$/), fc.stringMatching(/^[A-Za-z0-9_]{0,20}$/), fc.string({ maxLength: 8 })), (v) => {
        expect(isInert(v)).toBe(spec(v));
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses every character outside the set, a leading '-', and more than 4096 characters", () => {
    for (let code = 0; code < 0x3000; code++) {
      const c = String.fromCharCode(code);
      expect(isInert(`a${c}`), `U+${code.toString(16)}`).toBe(SET.includes(c));
    }
    for (const v of ["-", "-a", "a-", "a.b/c:d,e+f=g-h", "q:x:", "qx.id.", "qx-id-", "a[b]", "$x", "`x`", "a b", "a\nb", "'", '"', "\\", "é", "a".repeat(4097)]) expect(isInert(v), v).toBe(false);
    for (const v of ["", "a", "Z9", "_", "0", "qx", "a_b_C_1", "a".repeat(4096)]) expect(isInert(v), v).toBe(true);
  });
});

interface Interp {
  name: string;
  /** [args with {v} spliced into program text, what an inert value prints]. */
  cases: [string[], ((v: string) => string) | null][];
}

const INTERPRETERS: Interp[] = [
  {
    name: "python3",
    cases: [
      [["-c", "print('<{v}>')"], (v) => `<${v}>\n`],
      [["-c", 'x = "{v}"\nprint("<" + x + ">")'], (v) => `<${v}>\n`],
      [["-c", "'''{v}'''\nprint('ok')"], () => "ok\n"],
      [["-c", "# {v}\nprint('ok')"], () => "ok\n"],
      [["-c", "try:\n  {v}\nexcept BaseException: pass\nprint('ok')"], null],
    ],
  },
  {
    name: "node",
    cases: [
      [["-e", "console.log('<{v}>')"], (v) => `<${v}>\n`],
      [["-e", "console.log(`<{v}>`)"], (v) => `<${v}>\n`],
      [["-e", "console.log(\"<\" + String(/{v}/.source) + \">\")"], null],
      [["-e", "void 0; {v}; console.log('ok')"], null],
    ],
  },
  {
    name: "perl",
    cases: [
      [["-e", "print '<{v}>'"], (v) => `<${v}>`],
      [["-e", 'print "<{v}>"'], (v) => `<${v}>`],
      [["-e", "my $x = q({v}); print qq(<$x>)"], (v) => `<${v}>`],
      [["-e", "$_ = 'a'; print 'ok' if /{v}/ || 1"], () => "ok"],
    ],
  },
  {
    name: "awk",
    cases: [
      [["-v", "x=<{v}>", "BEGIN { print x }"], (v) => `<${v}>\n`],
      // (A `{v}` inside `{ … }` is no placeholder: the original's `{name}` pattern spans the brace.)
      [["$0 ~ /{v}/", "/dev/null"], () => ""],
      [["\"<{v}>\" != \"\"", "/dev/null"], () => ""],
    ],
  },
  {
    name: "sed",
    cases: [[["-n", "s/{v}/x/;s/^/</;s/$/>/p", "/dev/null"], () => ""]],
  },
];

const inertValue = fc.stringMatching(/^[A-Za-z0-9_]{0,30}$/);

// The system python starts in a fraction of a pyenv shim's time.
const find = (name: string) => (name === "python3" && existsSync("/usr/bin/python3") ? "/usr/bin/python3" : which(name));

for (const interp of INTERPRETERS) {
  const path = find(interp.name);
  describe.skipIf(!path)(`${interp.name}: a spliced value is inert or refused`, () => {
    if (!path) console.log(`interpreters-inert: ${interp.name} is not installed; skipped`);

    it("runs inert values as data (property): the output holds the value, nothing else runs", async () => {
      await fc.assert(
        fc.asyncProperty(inertValue, fc.integer({ min: 0, max: interp.cases.length - 1 }), async (v, k) => {
          const [args, expected] = interp.cases[k]!;
          const response = await run(dir, plan(dir, path!, args, { cwd: dir }), { v });
          expect(existsSync(MARKER)).toBe(false);
          expect(String(response.error ?? "")).not.toMatch(/the value of \{v\}/);
          if (expected) expect(response.data.stdout, JSON.stringify(v)).toBe(expected(v));
        }),
        { numRuns: 30 },
      );
    }, 60_000);

    it("refuses every value outside the inert set before starting the program (property)", async () => {
      await fc.assert(
        fc.asyncProperty(
          hostileValue(MARKER).filter((v) => !spec(v)),
          fc.integer({ min: 0, max: interp.cases.length - 1 }),
          async (v, k) => {
            const response = await run(dir, plan(dir, path!, interp.cases[k]![0], { cwd: dir }), { v });
            expect(existsSync(MARKER)).toBe(false);
            expect(response.status).toBe("error");
            expect(response.error).toContain("the value of {v}");
            expect(response.error).toContain("a whole argument");
            expect(response.data?.stdout ?? "").toBe("");
          },
        ),
        { numRuns: 60 },
      );
    }, 60_000);
  });
}

// The attacker's payloads, run for real: each is made only of characters the previous inert set
// allowed (or of any punctuation, for Perl's delimiters); each would create `marker` in the working
// folder if its text reached the program.
const PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~";
const CLOSE: Record<string, string> = { "(": ")", "[": "]", "{": "}", "<": ">" };
const perlPayloads = [...PUNCTUATION].flatMap((o) => {
  const c = CLOSE[o] ?? o;
  return [`system+q${o}touch${c},q${o}marker${c}`, `qx${o}touch marker${c}`, `system+qq${o}touch${c},qw${o}marker${c}`];
});
const ATTACKS: { name: string; args: string[]; values: string[]; input?: string }[] = [
  { name: "perl", args: ["-e", "print {v}"], values: perlPayloads },
  { name: "perl", args: ["-e", "print 1, {v}"], values: perlPayloads },
  { name: "perl", args: ["-ne", "print if /{v}/", "input.txt"], values: ["a/+system+q:touch:,q:marker:,/b", "a/+qx-touch${IFS}marker-+/b", "a/;system q{touch marker};/b"] },
  { name: "perl", args: ["-pe", "s/{v}/x/", "input.txt"], values: ["a/b/;system+q:touch:,q:marker:;s/c", "touch/system+q.touch.,q.marker./e;s/a"] },
  { name: "sed", args: ["s/{v}/x/g", "input.txt"], values: ["touch/touch/ewdir/x", "touch/touch/e;s/x", "touch.*/touch marker/e;s/a"], input: "touch marker\n" },
  { name: "sed", args: ["s/touch/{v}/g", "input.txt"], values: ["touch/ewdir/g", "touch/e;s/x/y", "&/e\n#"], input: "touch marker\n" },
  { name: "awk", args: ["\"{v}\" != \"\"", "input.txt"], values: ['" || system("touch marker") || "', 'x"+system("touch marker")+"'] },
  { name: "awk", args: ["$0 ~ /{v}/", "input.txt"], values: ['a/ || system("touch marker") || /b', "a/+system(\"touch marker\")+/b"] },
];

describe("the attacker's payloads: Perl quote-like operators with every delimiter, sed s///e, awk", () => {
  for (const attack of ATTACKS) {
    const path = find(attack.name);
    it.skipIf(!path)(`${attack.name} ${JSON.stringify(attack.args)}: refused, nothing runs`, async () => {
      writeFileSync(join(dir, "input.txt"), attack.input ?? "a\n");
      mkdirSync(join(dir, "dir"), { recursive: true });
      for (const v of attack.values) {
        const response = await run(dir, plan(dir, path!, attack.args, { cwd: dir }), { v });
        expect(existsSync(join(dir, "marker")), v).toBe(false);
        expect(response.status, v).toBe("error");
        expect(String(response.error), v).toContain("the value of {v}");
        expect(response.data?.stdout ?? "", v).toBe("");
      }
    }, 60_000);
  }
});

describe.skipIf(!find("python3"))("the fix the refusal names", () => {
  it("a whole-argument placeholder passes any value as exactly that argument", async () => {
    const p = plan(dir, find("python3")!, ["-c", "import sys; sys.stdout.write('<' + sys.argv[1] + '>')", "{v}"], { cwd: dir });
    await fc.assert(
      fc.asyncProperty(hostileValue(MARKER), async (v) => {
        const response = await run(dir, p, { v }, { PYTHONIOENCODING: "utf-8:surrogateescape" });
        expect(existsSync(MARKER)).toBe(false);
        expect(response.status).toBe("success");
        expect(response.data.stdout).toBe(`<${v}>`);
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  it("rye's own paths and the chain's config keys are not values: they splice as written", async () => {
    const p = plan(dir, find("python3")!, ["-c", "print('{tool_dir}|{greeting}')"], { cwd: dir, greeting: "hello world!" });
    const response = await run(dir, p, {});
    expect(response.status).toBe("success");
    expect(response.data.stdout).toBe(`${dir}|hello world!\n`);
  });

  it("params_json is the caller's data: spliced, it must be inert too", async () => {
    const p = plan(dir, find("python3")!, ["-c", "import json; print(json.loads('{params_json}'))"], { cwd: dir });
    const response = await run(dir, p, { v: `'); import os; os.system('touch ${MARKER}') #` });
    expect(existsSync(MARKER)).toBe(false);
    expect(response.status).toBe("error");
    expect(response.error).toContain("the value of {params_json}");
  });
});
