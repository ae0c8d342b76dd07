// Interpreter resolution under a bundle run's checkout rule (decisions.md #23), as generated cases:
// random layouts of interpreter candidates inside and outside the checkout, random inherited values
// and fallbacks. The resolver must never choose a file of the checkout; it takes the first outside
// candidate in the original's order, else the fallback, else refuses naming the opt-in. Without the
// rule it behaves as the original (a checkout candidate wins when it comes first).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { checkoutEnv } from "../../src/bundle/checkout-env.js";
import { isInside } from "../../src/bundle/checkout.js";
import { resolveInterpreter, type CheckoutPolicy } from "../../src/runtime/exec/resolve-interpreter.js";

const base = mkdtempSync(join(tmpdir(), "rye-checkout-interp-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let n = 0;
const OPT_IN = "pass --trust-checkout to allow it";

/** Folders `checkout` (the project) and `outside`, each with some of the candidate files. */
function layout(inside: boolean[], outside: boolean[]) {
  const dir = join(base, `l${n++}`);
  const checkout = join(dir, "checkout");
  const other = join(dir, "outside");
  const names = ["python", "python3"];
  for (const [root, present] of [[checkout, inside], [other, outside]] as const) {
    mkdirSync(join(root, ".venv/bin"), { recursive: true });
    present.forEach((p, i) => {
      if (!p) return;
      writeFileSync(join(root, ".venv/bin", names[i]!), "#!/bin/sh\n");
      chmodSync(join(root, ".venv/bin", names[i]!), 0o755);
    });
  }
  const policy: CheckoutPolicy = { contains: (p) => isInside(p, checkout), optIn: OPT_IN };
  return { checkout, other, policy };
}

describe("interpreter resolution in a bundle run", () => {
  it("never takes a checkout file: the first outside candidate, else the fallback, else a refusal naming the opt-in", () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
        fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
        fc.option(fc.constantFrom("python3", "CHECKOUT", "OUTSIDE"), { nil: undefined }),
        fc.option(fc.constantFrom("CHECKOUT", "OUTSIDE"), { nil: undefined }),
        fc.boolean(),
        (inside, outside, fallbackKind, inheritedKind, outsideFirst) => {
          const { checkout, other, policy } = layout(inside, outside);
          const at = (kind: string, root: string) => join(root, ".venv/bin/python3");
          const pick = (kind: string | undefined) => (kind === "CHECKOUT" ? at(kind, checkout) : kind === "OUTSIDE" ? at(kind, other) : kind);
          const config: Record<string, unknown> = {
            type: "local_binary", binary: "python", candidates: ["python3"], search_paths: [".venv/bin"], var: "RYE_PYTHON",
            search_roots: outsideFirst ? [other] : [],
          };
          const fallback = pick(fallbackKind);
          if (fallback !== undefined) config.fallback = fallback;
          const inherited = pick(inheritedKind);
          const osEnv = inherited ? { RYE_PYTHON: inherited } : {};
          // The original's order: the inherited value if it is a file, then each root's candidates, then the fallback.
          const order = [
            ...(inherited && (inheritedKind === "CHECKOUT" ? inside[1] : outside[1]) ? [inherited] : []),
            ...(outsideFirst ? [[other, outside] as const, [checkout, inside] as const] : [[checkout, inside] as const])
              .flatMap(([root, present]) => ["python", "python3"].filter((_, i) => present[i]).map((name) => join(root, ".venv/bin", name))),
          ];
          const firstOutside = order.find((p) => !policy.contains(p));
          const skipped = order.some((p) => policy.contains(p));
          const env: Record<string, string> = {};
          let result: string | undefined;
          let refusal: string | undefined;
          try {
            result = resolveInterpreter(env, config, { osEnv, projectPath: checkout, checkout: policy }).RYE_PYTHON;
          } catch (e) {
            refusal = (e as Error).message;
          }
          if (result !== undefined) expect(policy.contains(result), result).toBe(false);
          if (firstOutside) expect(result).toBe(firstOutside);
          else if (fallback !== undefined && !policy.contains(fallback)) expect(result).toBe(fallback);
          else if (skipped || (fallback !== undefined && policy.contains(fallback))) {
            expect(refusal).toContain(OPT_IN);
            expect(refusal).toContain("RYE_PYTHON");
          } else expect(result).toBeUndefined();
          // Without the rule, the original's first candidate wins, wherever it lies.
          const original = resolveInterpreter({}, config, { osEnv, projectPath: checkout }).RYE_PYTHON;
          expect(original).toBe(order[0] ?? fallback);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("a `command` interpreter in a bundle run", () => {
  it("neither runs a resolve_cmd program of the checkout nor takes a path in it that one prints", () => {
    const { checkout, policy } = layout([true, false], [false, false]);
    const marker = join(checkout, "..", "resolver-ran");
    const finder = join(checkout, "find-python");
    writeFileSync(finder, `#!/bin/sh\necho ran > '${marker}'\necho /usr/bin/python3\n`);
    chmodSync(finder, 0o755);
    const osEnv = { PATH: process.env.PATH };
    const byProgram = { type: "command", resolve_cmd: [finder], var: "RYE_PYTHON", fallback: "python3" };
    expect(resolveInterpreter({}, byProgram, { osEnv, projectPath: checkout, checkout: policy }).RYE_PYTHON).toBe("python3");
    expect(existsSync(marker)).toBe(false);
    // Without the rule the original runs it and takes what it prints.
    expect(resolveInterpreter({}, byProgram, { osEnv, projectPath: checkout }).RYE_PYTHON).toBe("/usr/bin/python3");
    expect(existsSync(marker)).toBe(true);
    const printed = { type: "command", resolve_cmd: ["echo", join(checkout, ".venv/bin/python")], var: "RYE_PYTHON" };
    expect(() => resolveInterpreter({}, printed, { osEnv, projectPath: checkout, checkout: policy })).toThrow(OPT_IN);
    expect(resolveInterpreter({}, printed, { osEnv, projectPath: checkout }).RYE_PYTHON).toBe(join(checkout, ".venv/bin/python"));
  });
});

describe("the environment of a bundle run's process", () => {
  const checkout = "/work/pr";
  const policy = { roots: [checkout], contains: (p: string) => isInside(p, checkout) };
  const entry = fc.oneof(
    fc.constantFrom("/usr/bin", "/opt/tools/bin", "/home/me/.local/bin"),
    fc.constantFrom("/work/pr/node_modules/.bin", "/work/pr/.venv/bin", "/work/pr", "/work/pr/evil"),
    fc.constantFrom("", ".", "./evil", "node_modules/.bin", "../x"),
  );

  it("drops every checkout or relative entry of a search list and keeps the others in order", () => {
    fc.assert(
      fc.property(fc.constantFrom("PATH", "PYTHONPATH", "NODE_PATH", "LD_LIBRARY_PATH"), fc.array(entry, { maxLength: 8 }), (name, entries) => {
        const { env, problem } = checkoutEnv({ [name]: entries.join(":"), OTHER: "./kept" }, policy);
        expect(problem).toBeNull();
        const kept = env[name]!.split(":").filter(Boolean);
        expect(kept).toEqual(entries.filter((e) => e.startsWith("/") && !isInside(e, checkout)));
        expect(env.OTHER).toBe("./kept");
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a preload from the checkout or by a relative path, and passes one from outside", () => {
    const cases: [Record<string, string>, boolean][] = [
      [{ LD_PRELOAD: "/work/pr/evil.so" }, true],
      [{ LD_PRELOAD: "/usr/lib/libfine.so /work/pr/evil.so" }, true],
      [{ LD_PRELOAD: "libc_malloc_debug.so" }, false],
      [{ BASH_ENV: "/work/pr/evil.sh" }, true],
      [{ BASH_ENV: "./evil.sh" }, true],
      [{ BASH_ENV: "/home/me/.bashenv" }, false],
      [{ NODE_OPTIONS: "--require ./evil.js" }, true],
      [{ NODE_OPTIONS: "--max-old-space-size=4096 -r /work/pr/evil.js" }, true],
      [{ NODE_OPTIONS: "--import=file:///work/pr/evil.mjs" }, true],
      [{ NODE_OPTIONS: "--require dotenv/config" }, true],
      [{ NODE_OPTIONS: "--require /home/me/hook.js --enable-source-maps" }, false],
      [{ NODE_OPTIONS: "--max-old-space-size=4096" }, false],
      [{ PYTHONSTARTUP: "/work/pr/x.py" }, true],
      [{ PYTHONHOME: "/work/pr/py" }, true],
    ];
    for (const [env, refused] of cases) expect(checkoutEnv(env, policy).problem !== null, JSON.stringify(env)).toBe(refused);
  });
});
