// Spliced values by content (src/runtime/exec/spliced-args.ts): the caller's and the environment's
// must be inert, every other value but the chain's constant text path-safe, unless the argument is
// one path. Rules as docs/security-model.md states them.
import { describe, expect, it } from "vitest";
import { splicedValueProblem, type SplicedValues } from "../../src/runtime/exec/spliced-args.js";

function values(args: unknown[], over: Partial<SplicedValues> = {}, command: unknown = "python3"): SplicedValues {
  const all: Record<string, unknown> = { project_path: "/w'x", safe: "/a/b-c.d", dash: "-rf", x: "ok_1", bad: "a b", greeting: "hi; (there)" };
  return {
    chainConfig: { command, args, greeting: "hi; (there)" },
    callerParams: { x: "ok_1", bad: "a b" },
    env: { E: "e v", OK: "fine" },
    param: (n) => all[n],
    fromCaller: (n) => n === "x" || n === "bad",
    constant: (n) => n === "greeting",
    ...over,
  };
}

const check = (args: unknown[], over: Partial<SplicedValues> = {}, command?: unknown) => splicedValueProblem("python3", -1, values(args, over, command));

describe("splicedValueProblem", () => {
  it("refuses a path that is not path-safe in program text, naming the placeholder and the argument", () => {
    const problem = check(["-c", "print('{project_path}')"])!;
    expect(problem).toContain(`the value of {project_path} ("/w'x") holds "'"; it is spliced into argument 2 of python3`);
    expect(check(["-c", "print('{safe}')"])).toBeNull();
  });

  it("an argument that is one path passes any path, unless its leading value starts with -", () => {
    expect(check(["{project_path}/README.md"])).toBeNull();
    expect(check(["x/{project_path}"])).toBeNull();
    expect(check(["{dash}/x"])).toContain('starts with "-"');
    expect(check(["x/{dash}"])).toBeNull();
  });

  it("the chain's constant text passes; without the constant test it is checked like a path", () => {
    expect(check(["-c", "print('{greeting}')"])).toBeNull();
    expect(check(["-c", "print('{greeting}')"], { constant: undefined })).toContain("{greeting}");
  });

  it("the caller's and the environment's values must be inert, even in an argument that is one path", () => {
    expect(check(["-c", "f('{x}')"])).toBeNull();
    expect(check(["-c", "f('{bad}')"])).toContain("only inert values");
    expect(check(["{bad}/x"])).toContain("only inert values");
    expect(check(["-c", "f('${E}')"])).toContain("only inert values");
    expect(check(["-c", "f('${OK}')"])).toBeNull();
  });

  it("the command is checked, the bound script at skip and whole placeholders are not", () => {
    expect(check([], {}, "run{project_path};")).toContain("the command");
    expect(splicedValueProblem("sh", 1, values(["-c", "echo {project_path};"]))).toBeNull();
    expect(check(["{project_path}", "{bad}"])).toBeNull();
    expect(check([42, null])).toBeNull();
  });
});
