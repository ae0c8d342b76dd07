import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readProject } from "../../src/project/read-project.js";
import { compileTools } from "../../src/compile/compile-tools.js";
import { readToolMetadata } from "../../src/tools/tool-metadata.js";
import { hasShared, SHARED_DIR, SHARED_SKIP_REASON } from "../helpers/shared.js";

// The build over every tool of a real corpus: each tool with an executor id becomes a plan or gets
// a located error, and the chains are the ones rye-reference §5 lists.
// The bash runtime's `bash -c {command}` resolves `{command}` to `/bin/bash` (rye-reference §2.3),
// whose inner bash reads {params_json} from stdin as code: RYE4012 at input_data (its message names the
// placeholder, not the tool, hence "none"). No corpus tool uses that runtime (docs/security-model.md, class 1 rule 10).
const BASH_RUNTIME = { "rye/core/runtimes/bash/bash": "none" };
const ERAS = [
  {
    name: "rye-2026-02/system",
    primitive: "rye/core/primitives/subprocess",
    // Sinks name `python`, which is no tool id; zen and the state-graph runtime were edited after signing
    // (test/sign/corpus.test.ts finds the same stale hashes), so the original refuses them too.
    failing: { "rye/core/sinks/file_sink": "RYE4001", "rye/core/sinks/null_sink": "RYE4001", "rye/core/sinks/websocket_sink": "RYE4001", "rye/agent/providers/zen/zen": "RYE4009", "rye/core/runtimes/state-graph/runtime": "RYE4009", ...BASH_RUNTIME },
  },
  {
    name: "rye-2026-04/core",
    primitive: "rye/core/primitives/execute",
    failing: { "rye/core/sinks/file_sink": "RYE4001", "rye/core/sinks/null_sink": "RYE4001", "rye/core/sinks/websocket_sink": "RYE4001", ...BASH_RUNTIME },
  },
];

const suffix = hasShared ? "" : ` — skipped: ${SHARED_SKIP_REASON}`;

describe.skipIf(!hasShared)(`rye build over corpus tools${suffix}`, () => {
  for (const era of ERAS) {
    it(`${era.name}: every tool compiles to its chain or gets a located diagnostic`, () => {
      const root = join(SHARED_DIR, "corpus", era.name);
      const sources = readProject(root, ["tool"]).sources.map((s) => ({ ...s, space: "project" }));
      const { tools, diagnostics } = compileTools(sources);
      const compiled = new Map(tools.map((t) => [t.id, t]));
      for (const d of diagnostics) {
        expect(d.loc, d.message).toBeDefined();
        expect(sources.some((s) => s.path === d.loc!.source), d.loc!.source).toBe(true);
        expect(d.loc!.start.line).toBeGreaterThan(0);
      }
      const errors = diagnostics.filter((d) => d.severity === "error");
      const failed: Record<string, string> = {};
      for (const s of sources) {
        const { metadata } = readToolMetadata(s.text, s.ext!);
        if (typeof metadata.executor_id !== "string" || compiled.has(s.id)) continue;
        const own = errors.find((d) => d.message.includes(`'${s.id}'`));
        failed[s.id] = own?.code ?? "none";
      }
      expect(failed).toEqual(era.failing);
      const python = tools.filter((t) => String(t.metadata.executor_id).startsWith("rye/core/runtimes/python/"));
      expect(python.length).toBeGreaterThan(10);
      for (const t of python) {
        expect(t.plan.chain.map((c) => c.item_id)).toEqual([t.id, t.metadata.executor_id, era.primitive]);
        expect(t.plan.validation).toEqual({ valid: true, issues: [], validated_pairs: 2 });
        expect(t.plan.config.command).toBe("${RYE_PYTHON}");
        expect(t.plan.files!.map((f) => f.path)).toEqual(t.plan.chain.map((c) => sources.find((s) => s.id === c.item_id)!.path));
      }
    });
  }
});
