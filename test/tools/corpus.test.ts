import { readdirSync, readFileSync } from "node:fs";
import { extname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { buildChain, planChain } from "../../src/tools/build-chain.js";
import { readToolMetadata } from "../../src/tools/tool-metadata.js";
import { hasShared, SHARED_DIR, SHARED_SKIP_REASON } from "../helpers/shared.js";
import { dirFinder } from "./finders.js";

// rye-reference §5 "Typical chains": F tools → runtimes/python/* → primitives/subprocess;
// C tools → runtimes/python/* → primitives/execute.
const ERAS = [
  { name: "rye-2026-02/system", primitive: "rye/core/primitives/subprocess" },
  { name: "rye-2026-04/core", primitive: "rye/core/primitives/execute" },
];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]));
}

const suffix = hasShared ? "" : ` — skipped: ${SHARED_SKIP_REASON}`;

describe.skipIf(!hasShared)(`corpus tools${suffix}`, () => {
  for (const era of ERAS) describe(era.name, () => checkEra(era));
});

function checkEra({ name, primitive }: (typeof ERAS)[number]): void {
  const root = join(SHARED_DIR, "corpus", name, ".ai/tools");
  const files = hasShared ? walk(root).sort() : [];
  const finder = dirFinder({ project: root });
  const read = files.map((path) => ({ id: relative(root, path).slice(0, -extname(path).length), ext: extname(path), ...readToolMetadata(readFileSync(path, "utf8"), extname(path)) }));

  it("every file yields metadata or a located problem", () => {
    expect(files.length).toBeGreaterThan(50);
    for (const r of read) {
      const located = r.problems.length > 0 && r.problems.every((p) => p.span !== undefined);
      expect(Object.keys(r.metadata).length > 0 || located, `${r.id}${r.ext}`).toBe(true);
      expect(r.problems.filter((p) => p.severity === "error"), `${r.id}${r.ext}`).toEqual([]);
    }
  });

  it("python tools chain through rye/core/runtimes/python/* to the primitive", () => {
    const python = read.filter((r) => typeof r.metadata.executor_id === "string" && r.metadata.executor_id.startsWith("rye/core/runtimes/python/"));
    expect(python.length).toBeGreaterThan(5);
    for (const r of python) {
      const { chain, issues } = buildChain(r.id, finder);
      expect(issues, r.id).toEqual([]);
      expect(chain.map((e) => e.item_id), r.id).toEqual([r.id, r.metadata.executor_id, primitive]);
      expect(chain.map((e) => e.space)).toEqual(["project", "project", "project"]);
      const plan = planChain(chain);
      expect(plan.validation).toEqual({ valid: true, issues: [], validated_pairs: 2 });
      expect(plan.config.command).toBe("${RYE_PYTHON}");
      expect(plan.env_configs.map((e) => e.item_id)).toEqual([r.metadata.executor_id]);
    }
  });

  it("every tool with an executor id builds a complete chain", () => {
    const chained = read.filter((r) => typeof r.metadata.executor_id === "string");
    const results = chained.map((r) => ({ id: r.id, ...buildChain(r.id, finder) }));
    const failures = results.filter((r) => r.issues.some((i) => i.severity === "error")).map((r) => `${r.id}: ${r.issues[0]!.message}`);
    // The sinks name `python` as their executor, which is no tool id: the original fails the same way.
    expect(failures).toEqual(["file_sink", "null_sink", "websocket_sink"].map((s) => `rye/core/sinks/${s}: Executor not found: python`));
    for (const r of results.filter((x) => x.issues.length === 0)) expect(r.chain.at(-1)!.metadata.executor_id ?? null).toBeNull();
  });
}
