import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readProject } from "../../src/project/read-project.js";
import type { SourceFile } from "../../src/index.js";
import { parseKnowledge } from "../../src/parse/parse-knowledge.js";
import { compileToDir, importDirective } from "../helpers/compile.js";
import { SHARED_DIR, SHARED_SKIP_REASON, hasShared } from "../helpers/shared.js";

// The 2026-04 bundles extend each other (code → standard → core), so each is built as the
// project with the other bundles as system spaces, as an installation of all five would be.
const BUNDLES = ["core", "standard", "code", "email", "web"];
const root = (b: string) => join(SHARED_DIR, "corpus", "rye-2026-04", b);

function spaces(project: string): SourceFile[] {
  const own = readProject(root(project)).sources.filter((s) => s.kind !== "tool");
  const system = BUNDLES.filter((b) => b !== project).flatMap((b, i) =>
    readProject(root(b), ["directive", "knowledge"]).sources.map((s) => ({ ...s, space: `system:${i}`, path: join(root(b), s.path) })),
  );
  return [...own, ...system];
}

describe.skipIf(!hasShared)("corpus 2026-04: extends chains and context", () => {
  for (const bundle of BUNDLES) {
    test(`${bundle}: every chain resolves and every context item exists`, async () => {
      const sources = spaces(bundle);
      const { dir, result } = compileToDir(sources);
      const contextErrors = result.diagnostics.filter((d) => d.code.startsWith("RYE3") && d.severity === "error");
      expect(contextErrors).toEqual([]);
      const knowledgeIds = new Set(sources.filter((s) => s.kind === "knowledge").map((s) => s.id));
      for (const id of result.compiled) {
        const mod = await importDirective(dir, id);
        const plan = mod.contextPlan;
        expect(plan.chain.at(-1)).toBe(id);
        for (const k of [...plan.system, ...plan.before, ...plan.after]) expect(knowledgeIds.has(k), `${id} → ${k}`).toBe(true);
      }
    }, 60_000);
  }

  test("renderThread of a directive with extends: system message from the chain's <system> items, root first", async () => {
    const sources = spaces("code");
    const { dir } = compileToDir(sources);
    const mod = await importDirective(dir, "rye/code/quality/review");
    expect(mod.contextPlan.chain.length).toBeGreaterThan(1);
    const bodies = (ids: string[]) =>
      ids.map((k) => {
        const s = sources.find((x) => x.kind === "knowledge" && x.id === k)!;
        return parseKnowledge(s.text, s.path).data!.body.trim();
      });
    const thread = mod.renderThread({});
    expect(thread.system).toBe(bodies(mod.contextPlan.system).filter(Boolean).join("\n\n"));
    const first: string = thread.messages[0].content;
    const prompt: string = mod.render({}).prompt;
    // Seed 004 order: hook before, directive before, prompt, directive after, hook after.
    const before = bodies(mod.contextPlan.before).join("\n\n");
    expect(first.indexOf(before)).toBeGreaterThanOrEqual(0);
    expect(first.indexOf(before)).toBeLessThan(first.indexOf(prompt));
  }, 60_000);
});

if (!hasShared) test.skip(`corpus context: ${SHARED_SKIP_REASON}`, () => {});
