import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { isInert } from "../../src/runtime/exec/inert.js";
import { hostileValue, plan, run, which } from "./interpreters-helpers.js";

// Class 1: a value spliced into the text of a program rye cannot read (python -c, node -e, perl -e,
// an awk -v assignment) must be inert — ASCII letters, digits and _ . / : , + = -, not starting with
// -, at most 4096 characters — or the run is refused before anything starts, naming the placeholder.
// Inert values are data in every position of these languages tried here.

const dir = mkdtempSync(join(tmpdir(), "rye-interp-inert-"));
const MARKER = join(dir, "marker");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:,+=-";
/** The documented rule, written out independently of the implementation's regular expression. */
const spec = (v: string) => v.length <= 4096 && !v.startsWith("-") && [...v].every((c) => SET.includes(c));

describe("the inert set", () => {
  it("accepts exactly the documented values (property over arbitrary Unicode)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary", maxLength: 20 }), fc.stringMatching(/^[-A-Za-z0-9_./:,+=]{0,20}$/), fc.string({ maxLength: 8 })), (v) => {
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
    for (const v of ["-", "-a", "--x", "a[b]", "$x", "`x`", "a b", "a\nb", "'", '"', "\\", "é", "a".repeat(4097)]) expect(isInert(v), v).toBe(false);
    for (const v of ["", "a", "a-", "a.b/c:d,e+f=g-h", "_", "0", "a".repeat(4096)]) expect(isInert(v), v).toBe(true);
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
    ],
  },
  {
    name: "awk",
    cases: [[["-v", "x=<{v}>", "BEGIN { print x }"], (v) => `<${v}>\n`]],
  },
];

const inertValue = fc.stringMatching(/^(?:[A-Za-z0-9_./:,+=][A-Za-z0-9_./:,+=-]{0,30})?$/);

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
