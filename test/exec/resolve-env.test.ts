import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyAnchorEnv, anchorApplies } from "../../src/runtime/exec/anchor.js";
import { applyDotenv, resolveChainEnv, resolveChainEnvOriginal, resolveEnv } from "../../src/runtime/exec/resolve-env.js";
import { pathJoin } from "../../src/runtime/exec/resolve-interpreter.js";

const dir = mkdtempSync(join(tmpdir(), "rye-env-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const none = { osEnv: {}, projectPath: dir, includeDotenv: false };

// Behaviour restated from rye-reference §2.2 (EnvResolver.resolve order and .env rules).
describe("resolveEnv", () => {
  it("layers OS env, .env, static vars in order (expanded so far) and verbatim tool_env", () => {
    const env = resolveEnv(
      { env: { A: "/a", B: "${A}/b", C: "${LATER}", LATER: "z", N: 42, T: true } },
      { X: "${A}" },
      { osEnv: { BASE: "os", A: "os-a" }, projectPath: dir, dotenv: "BASE=dot\n" },
    );
    expect(env).toEqual({ BASE: "dot", A: "/a", B: "/a/b", C: "", LATER: "z", N: "42", T: "True", X: "${A}" });
  });

  it("parses .env lines as the original: no quote stripping, export lines dropped", () => {
    expect(applyDotenv({}, "# c\nexport FOO=bar\nQ=\"q\"\n  SP = s p  \n=v\nK==v\nNOEQ\r\nW=1\r\n")).toEqual({ Q: '"q"', SP: "s p", K: "=v", W: "1" });
    expect(resolveEnv(null, null, { ...none, dotenv: "A=1\n" })).toEqual({});
  });

  it("resolves a local binary under search roots then the project, with candidates", () => {
    mkdirSync(join(dir, ".venv/bin"), { recursive: true });
    writeFileSync(join(dir, ".venv/bin/python3"), "");
    const interpreter = { type: "local_binary", binary: "python", candidates: ["python3"], search_paths: [".venv/bin"], var: "PY", fallback: "python3" };
    expect(resolveEnv({ interpreter }, null, none).PY).toBe(join(dir, ".venv/bin/python3"));
    expect(resolveEnv({ interpreter: { ...interpreter, search_paths: ["nowhere"] } }, null, none).PY).toBe("python3");
    expect(resolveEnv({ interpreter: { ...interpreter, search_paths: [] } }, null, none).PY).toBe("python3");
  });

  it("keeps an inherited interpreter that names an existing file", () => {
    const existing = join(dir, "mypython");
    writeFileSync(existing, "");
    const interpreter = { type: "local_binary", binary: "python", search_paths: [".venv/bin"], var: "PY" };
    expect(resolveEnv({ interpreter }, null, { ...none, osEnv: { PY: existing } }).PY).toBe(existing);
    // Not a file: resolution runs, finds nothing and, with no fallback, leaves the inherited value.
    expect(resolveEnv({ interpreter }, null, { ...none, osEnv: { PY: "/no/such/python" } }).PY).toBe("/no/such/python");
  });

  it("resolves system binaries on the inherited PATH and runs resolve commands", () => {
    const bin = join(dir, "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "mytool"), "#!/bin/sh\n");
    chmodSync(join(bin, "mytool"), 0o755);
    const osEnv = { PATH: `/definitely/missing:${bin}` };
    expect(resolveEnv({ interpreter: { type: "system_binary", binary: "mytool", var: "T" } }, null, { ...none, osEnv }).T).toBe(join(bin, "mytool"));
    expect(resolveEnv({ interpreter: { type: "system_binary", binary: "absent-tool", var: "T", fallback: "fb" } }, null, { ...none, osEnv }).T).toBe("fb");
    const command = { type: "command", resolve_cmd: [process.execPath, "-e", "console.log('/x/y\\nsecond')"], var: "C" };
    expect(resolveEnv({ interpreter: command }, null, none).C).toBe("/x/y");
    expect(resolveEnv({ interpreter: { type: "unknown", var: "U", fallback: "f" } }, null, none).U).toBeUndefined();
  });

  it("joins paths as pathlib does", () => {
    expect(pathJoin("/p", ".venv/bin", "python")).toBe("/p/.venv/bin/python");
    expect(pathJoin("/p", "/abs/bin", "x")).toBe("/abs/bin/x");
    expect(pathJoin("/p/", "./a//b/", "../c")).toBe("/p/a/b/../c");
  });
});

describe("chain env precedence (decisions.md #11)", () => {
  // rye-reference §2.2: with the OS at FOO=os, the tool setting FOO/BAR/TOOLONLY and the runtime
  // setting BAR, the original yields FOO=os, BAR=runtime, TOOLONLY=t.
  const configs = [
    { item_id: "runtime", env_config: { env: { BAR: "runtime" } } },
    { item_id: "tool", env_config: { env: { FOO: "tool", BAR: "tool", TOOLONLY: "t" } } },
  ];
  const sources = { osEnv: { FOO: "os" }, projectPath: dir, includeDotenv: false };

  it("original order: the OS and the element nearest the primitive win", () => {
    expect(resolveChainEnvOriginal(configs, {}, sources)).toMatchObject({ FOO: "os", BAR: "runtime", TOOLONLY: "t" });
    expect(resolveChainEnvOriginal([], {}, sources)).toEqual({});
  });

  it("our order: tool over runtime over primitive over the OS", () => {
    expect(resolveChainEnv(configs, {}, sources)).toEqual({ FOO: "tool", BAR: "tool", TOOLONLY: "t" });
    const layered = [
      { item_id: "primitive", env_config: { env: { P: "prim", BAR: "prim" } } },
      { item_id: "runtime", env_config: { env: { BAR: "runtime", FROM_P: "${P}" } } },
    ];
    expect(resolveChainEnv(layered, {}, sources)).toEqual({ FOO: "os", P: "prim", BAR: "runtime", FROM_P: "prim" });
  });

  it("templates env_config values with the anchor context first", () => {
    const withCtx = [{ item_id: "r", env_config: { env: { ROOT: "{anchor_path}/bin" } } }];
    expect(resolveChainEnv(withCtx, { anchor_path: "/anc" }, sources).ROOT).toBe("/anc/bin");
    expect(resolveChainEnvOriginal(withCtx, { anchor_path: "/anc" }, sources).ROOT).toBe("/anc/bin");
  });
});

describe("anchor", () => {
  it("applies by mode and markers, and prepends/appends env paths without duplicates", () => {
    writeFileSync(join(dir, "__init__.py"), "");
    expect(anchorApplies({ enabled: true, markers_any: ["__init__.py"] }, dir)).toBe(true);
    expect(anchorApplies({ enabled: true, markers_any: ["pyproject.toml"] }, dir)).toBe(false);
    expect(anchorApplies({ enabled: true, mode: "always" }, "/none")).toBe(true);
    expect(anchorApplies({ enabled: false, mode: "always" }, dir)).toBe(false);
    const anchor = { env_paths: { PYTHONPATH: { prepend: ["{anchor_path}", "{runtime_lib}"], append: ["/tail", "/os1"] }, NEW: { append: ["{missing}"] } } };
    const env = applyAnchorEnv(anchor, {}, { anchor_path: "/a", runtime_lib: "" }, { PYTHONPATH: "/os1::/os2" });
    expect(env).toEqual({ PYTHONPATH: "/a:/os1:/os2:/tail", NEW: "{missing}" });
  });
});
