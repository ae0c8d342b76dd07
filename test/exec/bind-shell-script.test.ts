import { describe, expect, it } from "vitest";
import { bindScriptArgs } from "../../src/runtime/exec/bind-script-args.js";
import { bindShellScript } from "../../src/runtime/exec/bind-shell-script.js";
import { findShellScript, scriptPlaceholders } from "../../src/runtime/exec/shell-script.js";

const bind = (script: string) => bindShellScript(script, scriptPlaceholders(script, (n) => n === "x" || n === "y"), ["X", "Y", "X", "Y", "X"], { nonce: "N" }).script;

describe("finding a shell's -c script", () => {
  it("knows POSIX shells and their -c flags, and skips options after -c", () => {
    expect(findShellScript("/bin/sh", ["-c", "s"])).toEqual({ index: 1, shell: "sh" });
    expect(findShellScript("/usr/bin/bash", ["-lc", "s", "n"])).toEqual({ index: 1, shell: "bash" });
    expect(findShellScript("zsh", ["-c", "-e", "s"])).toEqual({ index: 2, shell: "zsh" });
    expect(findShellScript("dash", ["-c", "-o", "errexit", "s"])).toEqual({ index: 3, shell: "dash" });
    // fish and csh read quotes differently: not proven, so their scripts take inert values only.
    expect(findShellScript("fish", ["-c", "s"]).index).toBe(-1);
    expect(findShellScript("python3", ["-c", "s"]).index).toBe(-1);
    expect(findShellScript("/bin/sh", ["script.sh"]).index).toBe(-1);
  });

  it("finds placeholders as the original's passes would: System 1 first, then {param} between", () => {
    expect(scriptPlaceholders("a ${HOME} {x} {{x}} {print $1}", (n) => n === "x").map((p) => p.expr)).toEqual(["HOME", "x"]);
  });
});

describe("binding a script's values", () => {
  it("places a reference fit for each quoting context, after a prelude that shifts the values away", () => {
    expect(bind(`echo {x} "a {x} b" 'c {y} d' a"$(echo {x})" a"\`echo {y}\`"`)).toBe(
      `__rye_N_1=\${1} __rye_N_2=\${2} __rye_N_3=\${3} __rye_N_4=\${4} __rye_N_5=\${5}; shift 5; echo "\${__rye_N_1}" "a \${__rye_N_2} b" 'c '"\${__rye_N_3}"' d' a"$(echo "\${__rye_N_4}")" a"\`echo "\${__rye_N_5}"\`"`,
    );
  });

  it("leaves a comment's placeholder as text and the script unchanged without placeholders", () => {
    expect(bind("echo hi # {x}\necho {y}")).toBe(`__rye_N_1=\${1} __rye_N_2=\${2}; shift 2; echo hi # {x}\necho "\${__rye_N_2}"`);
    expect(bind("echo plain")).toBe("echo plain");
  });

  it("refuses contexts where the shell would read a value as code", () => {
    for (const script of ["echo $(( {x} ))", "(( {x} ))", "echo ${a:-${HOME}}", "echo $'{x}'", "cat <<E\n{x}\nE", "echo \\{x}", "echo ${x}", "{x} arg", "let {x}", "[[ {x} -gt 1 ]]"]) {
      expect(() => bind(script), script).toThrow(/where rye cannot prove the shell reads its value as data/);
    }
  });

  it("appends the values after $0, adding the shell's name when the template gave none", () => {
    const source = { index: 1, template: "cat -- {x}", shell: "sh" };
    const param = (n: string) => (n === "x" ? "-n" : undefined);
    const o = { nonce: "N" };
    expect(bindScriptArgs(["-c", "ignored"], source, param, {}, o)).toEqual(["-c", `__rye_N_1=\${1}; shift 1; cat -- "\${__rye_N_1}"`, "sh", "-n"]);
    expect(bindScriptArgs(["-c", "ignored", "name", "a"], source, param, {}, o)).toEqual(["-c", `__rye_N_1=\${1}; shift 1; cat -- "\${__rye_N_1}"`, "name", "-n", "a"]);
    // Without `--`, a value starting with '-' would be an option of cat: refused.
    expect(() => bindScriptArgs(["-c", "x"], { ...source, template: "cat {x}" }, param, {}, o)).toThrow(/starts with '-'/);
  });
});
