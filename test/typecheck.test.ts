import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, test } from "vitest";
import { compileToDir, exampleSources } from "./helpers/compile.js";
import { problemsOf, STRICT, ts } from "./helpers/strict-tsc.js";

// Compiles a consumer against the emitted modules under strict tsc: correct calls type-check,
// and each `@ts-expect-error` line (a missing required input, an unknown input, a wrong type)
// must really be an error, or tsc reports the directive as unused.


const CONSUMER = `
import { directives } from "./index.js";
import greet, { render as renderGreet, validate, type Inputs } from "./directives/examples/greet.js";

const a: string = renderGreet({ name: "Ada" }).prompt;
const b: string = directives["examples/greet"].render({ name: "Ada", title: "Dr.", greeting: "Hi" }).body;
const c = directives["examples/summarize_file"].render({ file_path: "a.ts", max_points: 3, include_code: true, focus: ["x"], style: { tone: "dry" } });
const ok: Inputs = { name: "x" };
const v = validate({ name: 1 });
if (v.status === "success") renderGreet(v.inputs);
greet.render({ name: "Grace" });

// @ts-expect-error a required input is missing
renderGreet({ title: "Dr." });
// @ts-expect-error an unknown input
renderGreet({ name: "Ada", nmae: "typo" });
// @ts-expect-error a wrong type for an integer input
directives["examples/summarize_file"].render({ file_path: "a", max_points: "3" });
// @ts-expect-error an unknown directive id
directives["examples/nope"];
export { a, b, c, ok };
`;

// The registry alone: typed per directive without loading each module's declarations.
const REGISTRY_CONSUMER = `
import { directives, type DirectiveId } from "./index.js";

const id: DirectiveId = "examples/greet";
const a: string = directives[id].render({ name: "Ada" }).prompt;
const b = directives["examples/summarize_file"].validate({});
if (b.status === "success") directives["examples/summarize_file"].render(b.inputs);
const plan: string[] = directives["examples/greet"].contextPlan.chain;
directives["examples/greet"].default.render({ name: "Grace", title: "Dr." });

// @ts-expect-error a required input is missing
directives["examples/greet"].render({ title: "Dr." });
// @ts-expect-error an unknown input
directives["examples/greet"].render({ name: "Ada", nmae: "typo" });
// @ts-expect-error the default export checks inputs too
directives["examples/greet"].default.render({});
export { a, plan };
`;

function check(roots: string[], dir: string) {
  const program = ts.createProgram(roots, { ...STRICT, skipLibCheck: false });
  const problems = problemsOf(program, dir);
  return { problems, files: program.getSourceFiles().map((f) => relative(dir, f.fileName).split("\\").join("/")) };
}

test("emitted modules type-check under strict tsc, and misuse is a type error", () => {
  const { dir, result } = compileToDir(exampleSources(), { emitTs: true });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  // A consumer of out/ sees the declarations only: no module body is type-checked on its behalf.
  writeFileSync(join(dir, "consumer.ts"), CONSUMER);
  const consumer = check([join(dir, "consumer.ts")], dir);
  expect(consumer.problems).toEqual([]);
  expect(consumer.files).toContain("directives/examples/greet.d.ts");
  expect(consumer.files.filter((f) => f.startsWith("ts/") || /^(directives|knowledge|tools)\/.*(?<!\.d)\.ts$/.test(f))).toEqual([]);
  writeFileSync(join(dir, "registry-consumer.ts"), REGISTRY_CONSUMER);
  const registry = check([join(dir, "registry-consumer.ts")], dir);
  expect(registry.problems).toEqual([]);
  expect(registry.files).toContain("index.d.ts");
  expect(registry.files.filter((f) => f.startsWith("directives/"))).toEqual([]);
  // The TypeScript sources under ts/ compile strictly as a tree, and give the same errors for misuse.
  writeFileSync(join(dir, "ts", "consumer.ts"), CONSUMER);
  const sources = check([join(dir, "ts", "consumer.ts"), join(dir, "ts", "index.ts")], dir);
  expect(sources.problems).toEqual([]);
  expect(sources.files).toContain("ts/directives/examples/greet.ts");
  expect(sources.files).not.toContain("directives/examples/greet.d.ts");
}, 60_000);
