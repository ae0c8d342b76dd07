import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A temporary project with runtimes and tools written for the end-to-end tests. */
export interface FixtureProject {
  root: string;
  tools: string;
  /** Directory whose `rm` and `touch` only leave canary files, put first on PATH. */
  stubBin: string;
  canaries: string;
}

const FILES: Record<string, string> = {
  "rye/core/primitives/execute.yaml": "tool_type: primitive\nexecutor_id: null\n",
  "rt/python.yaml": `tool_type: runtime
executor_id: rye/core/primitives/execute
env_config:
  interpreter: {type: system_binary, binary: python3, var: RT_PYTHON, fallback: python3}
  env:
    PYTHONUNBUFFERED: "1"
    FROM_RUNTIME: runtime
    SHARED: runtime
    DERIVED: "\${RT_PYTHON}"
anchor:
  enabled: true
  mode: auto
  markers_any: ["__init__.py"]
  root: tool_dir
  lib: lib
  env_paths:
    PYTHONPATH:
      prepend: ["{anchor_path}", "{runtime_lib}"]
config:
  command: "\${RT_PYTHON}"
  args: ["{tool_path}", "--project-path", "{project_path}"]
  input_data: "{params_json}"
  timeout: 30
`,
  "rt/node.yaml": `tool_type: runtime
executor_id: rye/core/primitives/execute
env_config:
  interpreter: {type: system_binary, binary: node, var: RT_NODE, fallback: node}
config:
  command: "\${RT_NODE}"
  args: ["{tool_path}", "{message}"]
  timeout: 30
`,
  "rt/shell.yaml": `tool_type: runtime
executor_id: rye/core/primitives/execute
config:
  command: /bin/sh
  args: ["-c", "{script}", "sh", "{message}"]
  timeout: 30
`,
  "demo/__init__.py": "",
  "demo/py_echo.py": `"""Echoes its parameters, argv and a few env vars as JSON."""
__version__ = "1.0.0"
__tool_type__ = "python"
__executor_id__ = "rt/python"
ENV_CONFIG = {"env": {"SHARED": "tool"}}

import json, os, sys

params = json.load(sys.stdin)
if params.get("fail"):
    print(json.dumps({"success": False, "error": "asked to fail"}))
    sys.exit(0)
keys = ["FROM_RUNTIME", "SHARED", "PYTHONPATH", "PYTHONUNBUFFERED", "DERIVED"]
print(json.dumps({"success": True, "params": params, "argv": sys.argv[1:], "env": {k: os.environ.get(k) for k in keys}}))
`,
  "demo/hang.py": `__tool_type__ = "python"
__executor_id__ = "rt/python"
CONFIG = {"timeout": 2}

import json, os, subprocess, sys, time

params = json.load(sys.stdin)
child = subprocess.Popen(["sleep", "60"])
with open(params["pid_file"], "w") as f:
    f.write(f"{os.getpid()} {child.pid}")
time.sleep(60)
`,
  "demo/node_echo.mjs": `export const __tool_type__ = "javascript";
export const __executor_id__ = "rt/node";

console.log(JSON.stringify({ argv: process.argv.slice(2) }));
`,
  "demo/sh_echo.yaml": `tool_type: shell
executor_id: rt/shell
config:
  script: 'printf "%s" "$1"'
`,
};

/** Writes the fixture project into a fresh temporary directory. */
export function createFixtureProject(): FixtureProject {
  const root = mkdtempSync(join(tmpdir(), "rye-e2e-"));
  const tools = join(root, ".ai/tools");
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(tools, path)), { recursive: true });
    writeFileSync(join(tools, path), text);
  }
  const stubBin = join(root, "stub-bin");
  const canaries = join(root, "canaries");
  mkdirSync(stubBin);
  mkdirSync(canaries);
  // If a parameter ever reached a shell as code, these stubs would record it instead of acting.
  for (const name of ["rm", "touch"]) {
    writeFileSync(join(stubBin, name), `#!/bin/sh\necho "$0 $*" >> "${canaries}/${name}"\n`);
    chmodSync(join(stubBin, name), 0o755);
  }
  return { root, tools, stubBin, canaries };
}
