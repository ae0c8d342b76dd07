import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { evaluationContextIn } from "../../src/runtime/exec/shell-evaluation.js";
import { checkSplicedValues } from "../../src/tools/check-shell-script.js";
import { installedShells, plan, run } from "./interpreters-helpers.js";

// Class 1, "bound data must not become code through the shell's own evaluation": every installed
// shell × every arithmetic or name context × every channel a caller's value can take into a -c
// script (spliced into it, "$1" after it, stdin read into a variable) × hostile values. Each case is
// refused with the evaluation rule's message, at run and at build, and its marker never exists.

const dir = mkdtempSync(join(tmpdir(), "rye-shell-taint-eval-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { shells, missing } = installedShells();
if (missing.length > 0) console.log(`shell-taint-evaluation: not installed, skipped: ${missing.join(", ")}`);

/** Contexts, each a script around the operand E. */
const CONTEXTS: string[] = [
  `[ E -gt 0 ] && echo pos`,
  `test E -eq 1`,
  `[[ E -gt 0 ]] && echo pos`,
  `[[ -n x && E -lt 3 ]]`,
  `echo $(( E + 1 ))`,
  `echo $[ E + 1 ]`,
  `(( E > 0 )) && echo pos`,
  `let "x = E"`,
  `declare -i x=E`,
  `typeset -i x=E`,
  `printf '%d' E`,
  `printf -v x '%s' E`,
  `x=E; echo $(( x ))`,
  `x=E; echo "\${!x}"`,
  `a=(1 2); echo "\${a[E]}"`,
  `s=abc; echo "\${s:E}"`,
  `for i in E; do echo $(( i )); done`,
  `shift E`,
  `exit E`,
  `read -r "a[E]" </dev/null`,
  `test -v "a[E]"`,
];

/** Channels: how the operand reaches the script, and the config that carries the caller's value. */
const CHANNELS: [string, (shell: string[], ctx: string) => { args: string[]; config: Record<string, unknown> }][] = [
  ["spliced", (sh, ctx) => ({ args: [...sh.slice(1), "-c", ctx.replaceAll("E", "{v}")], config: {} })],
  ["argument", (sh, ctx) => ({ args: [...sh.slice(1), "-c", ctx.replaceAll("E", `"$1"`), "sh", "{v}"], config: {} })],
  ["stdin", (sh, ctx) => ({ args: [...sh.slice(1), "-c", `read -r w; ${ctx.replaceAll("E", `"$w"`)}`], config: { input_data: "{v}" } })],
];

const marker = (tag: string) => join(dir, `M-${tag}`);
const VALUES = (m: string) => [`a[$(touch ${m})]`, `a[\`touch ${m}\`]`, `x[$(touch ${m})]+1`];

describe("a caller's value never reaches a script that evaluates a non-literal operand", () => {
  for (const shell of shells) {
    it(`${shell.name}: every context × channel × value is refused and runs nothing`, async () => {
      let n = 0;
      for (const ctx of CONTEXTS) {
        for (const [channel, make] of CHANNELS) {
          // Inside `${…}` a `{v}` is part of a System 1 placeholder, not a value's channel.
          if (channel === "spliced" && /\$\{[^}]*E/.test(ctx)) continue;
          for (const value of VALUES(marker(`${shell.name.replace(" ", "_")}-${n}`))) {
            const m = marker(`${shell.name.replace(" ", "_")}-${n++}`);
            const { args, config } = make(shell.argv, ctx);
            const r = await run(dir, plan(dir, shell.argv[0]!, args, config), { v: value.replaceAll(marker(`${shell.name.replace(" ", "_")}-${n - 1}`), m) });
            expect(r.status, `${shell.name} ${channel} ${ctx}`).toBe("error");
            expect(r.error, `${shell.name} ${channel} ${ctx}`).toMatch(channel === "spliced" ? /-c script that evaluates|a script rye cannot read|placeholder '\{v\}' sits/ : /-c script that evaluates|a script rye cannot read/);
            expect(existsSync(m)).toBe(false);
          }
        }
      }
    });
  }

  it("an inert name in a numeric test cannot reach a variable the caller fills through stdin (mksh, lksh, posh)", async () => {
    for (const shell of shells) {
      const m = marker(`indirect-${shell.name.replace(" ", "_")}`);
      const args = [...shell.argv.slice(1), "-c", "read -r first; [ {n} -eq 0 ] && echo zero; echo done"];
      const r = await run(dir, plan(dir, shell.argv[0]!, args, { input_data: "{line}" }), { n: "first", line: `a[$(touch ${m})]` });
      expect(r.status).toBe("error");
      expect(r.error).toMatch(/evaluates `\[ \{n\} -eq 0 \]/);
      expect(existsSync(m)).toBe(false);
    }
  });

  it("the build refuses the same scripts (RYE4012 site), naming the context", () => {
    for (const ctx of CONTEXTS) {
      for (const [channel, make] of CHANNELS) {
        if (channel === "spliced" && /\$\{[^}]*E/.test(ctx)) continue;
        const { args, config } = make(["bash"], ctx);
        const report = checkSplicedValues([], { command: "bash", args, ...config });
        expect(report.refused.some((r) => /-c script that evaluates/.test(r.message)), `${channel} ${ctx}`).toBe(true);
      }
    }
  });
});

describe("scripts with no evaluation context, or only numerals in it, keep taking values", () => {
  const SAFE = [`printf '<%s>' "$1"`, `[ "$1" = x ] || printf '<%s>' "$1"`, `echo $(( 1 + 2 )); printf '<%s>' "$1"`, `case "$1" in x) ;; esac; cat -- "$1" 2>/dev/null; true`];
  it("each safe script runs with a hostile value as data on every shell", async () => {
    for (const shell of shells) {
      for (const [k, script] of SAFE.entries()) {
        if (script.startsWith("case")) continue;
        const m = marker(`safe-${k}-${shell.name.replace(" ", "_")}`);
        const r = await run(dir, plan(dir, shell.argv[0]!, [...shell.argv.slice(1), "-c", script, "sh", "{v}"]), { v: `a[$(touch ${m})]` });
        expect(r.status, `${shell.name} ${script}: ${r.error}`).toBe("success");
        expect(existsSync(m)).toBe(false);
      }
    }
  });

  it("property: any context wrapping a non-numeral operand is found; numerals are not", () => {
    const operand = fc.oneof(fc.constantFrom(`"$1"`, `$w`, `{v}`, `n`, "`x`", `"\${v}"`), fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/));
    fc.assert(
      fc.property(fc.constantFrom(...CONTEXTS), operand, fc.constantFrom("", "echo hi; ", "if true; then ", "x=1 && "), (ctx, e, prefix) => {
        expect(evaluationContextIn(`${prefix}${ctx.replaceAll("E", e)}`)).not.toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...SAFE), fc.integer({ min: 0, max: 999 }), (script, k) => {
        expect(evaluationContextIn(`${script}; [ ${k} -gt 1 ]; echo $(( ${k} * 2 ))`)).toBeNull();
      }),
    );
  });
});
