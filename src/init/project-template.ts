// The files `rye init` writes: a small project that builds with no warnings and shows each kind of
// item once (a directive with inputs, outputs, context and a tool call; knowledge; a Python tool with
// the runtime and primitive it runs through; prompt tests of the directive).

/** Project-relative path → file text. */
export type TemplateFiles = ReadonlyArray<readonly [path: string, text: string]>;

const DIRECTIVE = `<!-- rye:unsigned -->
# Summarize

Summarizes a text for a reader, in the tone the project's style guide sets.

\`\`\`xml
<directive name="summarize" version="1.0.0">
  <metadata>
    <description>Summarize a text in a few sentences for a named reader.</description>
    <category>hello</category>
    <author>you</author>
    <model tier="fast" />
    <limits turns="3" tokens="2048" />
    <permissions>
      <execute>
        <tool>hello/word_count</tool>
      </execute>
    </permissions>
    <context>
      <before>hello/tone</before>
    </context>
  </metadata>

  <inputs>
    <input name="text" type="string" required="true">The text to summarize</input>
    <input name="reader" type="string" required="false">Who the summary is for</input>
    <input name="sentences" type="integer" required="false" default="3">How many sentences at most</input>
  </inputs>

  <outputs>
    <output name="summary" type="string" required="true">The summary</output>
    <output name="words" type="integer" required="false">How many words the text has</output>
  </outputs>
</directive>
\`\`\`

<process>
  <step name="count">
    Count the words of the text: \`rye_execute(item_type="tool", item_id="hello/word_count", parameters={"text": "{input:text}"})\`
  </step>
  <step name="summarize">
    Summarize the text below in at most {input:sentences} sentences for {input:reader|a busy colleague}.

    {input:text}
  </step>
</process>
`;

const KNOWLEDGE = `<!-- rye:unsigned -->

\`\`\`yaml
name: tone
title: Tone
entry_type: reference
category: hello
version: "1.0.0"
author: you
\`\`\`

Write plainly: short sentences, no jargon, the most important point first.
`;

const INSTRUCTION = `<!-- rye:unsigned -->

\`\`\`yaml
name: DirectiveInstruction
title: Directive Instruction
entry_type: context
category: rye/agent/core
version: "1.0.0"
author: you
\`\`\`

You are running the directive below. Follow its steps in order, call tools instead of describing
them, and finish by returning the declared outputs.
`;

const TOOL = `# rye:unsigned
"""Count the words of a text; prints a JSON result."""

__version__ = "1.0.0"
__tool_type__ = "python"
__executor_id__ = "rye/core/runtimes/python/script"
__category__ = "hello"
__tool_description__ = "Count the words of a text"

CONFIG_SCHEMA = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "description": "The text to count"},
    },
    "required": ["text"],
}

import argparse
import json
import sys


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--params", default=None)
    parser.add_argument("--project-path", default=".")
    args, _ = parser.parse_known_args()
    params = json.loads(args.params) if args.params else json.load(sys.stdin)
    print(json.dumps({"success": True, "count": len(str(params.get("text", "")).split())}))


if __name__ == "__main__":
    main()
`;

const RUNTIME = `# rye:unsigned
version: "1.0.0"
tool_type: runtime
executor_id: rye/core/primitives/subprocess
category: rye/core/runtimes/python
description: Runs a Python script with the tool's parameters as JSON.
env_config:
  interpreter:
    type: local_binary
    binary: python
    candidates: [python3]
    search_paths: [".venv/bin"]
    var: RYE_PYTHON
    fallback: python3
  env:
    PYTHONUNBUFFERED: "1"
config:
  command: "\${RYE_PYTHON}"
  args:
    - "{tool_path}"
    - "--params"
    - "{params_json}"
    - "--project-path"
    - "{project_path}"
  timeout: 60
`;

const PRIMITIVE = `# rye:unsigned
version: "1.0.0"
tool_type: primitive
executor_id: null
category: rye/core/primitives
description: Runs a command as a child process (argv, no shell).
config_schema:
  type: object
  properties:
    command: {type: string}
    args: {type: array}
    timeout: {type: integer}
`;

/** Prompt tests of the directive (docs/testing.md): what `rye test` and the README's CI steps run. */
const DIRECTIVE_TESTS = `cases:
  - name: writes for a busy colleague unless told who reads
    inputs:
      text: The build is green again.
    expect:
      body:
        contains: "for a busy colleague"

  - name: refuses a call without a text
    inputs:
      reader: Ada
    refuses:
      missing: text
`;

/** The config file, pointing editors at the schema shipped in the package. */
export const CONFIG_FILE = `${JSON.stringify({ $schema: "./node_modules/rye-build/schema/rye.config.schema.json", out: "out" }, null, 2)}\n`;

/** Lines `rye init` makes sure the project's .gitignore holds. */
export const GITIGNORE_LINES = ["/out/", "/.rye-cache/"] as const;

/** Every file `rye init` creates when it is missing. */
export const TEMPLATE_FILES: TemplateFiles = [
  [".ai/directives/hello/summarize.md", DIRECTIVE],
  [".ai/knowledge/hello/tone.md", KNOWLEDGE],
  [".ai/knowledge/rye/agent/core/DirectiveInstruction.md", INSTRUCTION],
  [".ai/tools/hello/word_count.py", TOOL],
  [".ai/tools/rye/core/runtimes/python/script.yaml", RUNTIME],
  [".ai/tools/rye/core/primitives/subprocess.yaml", PRIMITIVE],
  [".ai/tests/directives/hello/summarize.test.yaml", DIRECTIVE_TESTS],
  ["rye.config.json", CONFIG_FILE],
];
