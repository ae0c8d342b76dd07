import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { readProject } from "../src/project/read-project.js";
import { parseDirective } from "../src/parse/parse-directive.js";
import { interpolateParsed } from "../src/runtime/interpolate.js";
import { PyFloat } from "../src/runtime/pystr.js";
import { compileToDir, importDirective } from "./helpers/compile.js";
import { SHARED_DIR, SHARED_SKIP_REASON, hasShared } from "./helpers/shared.js";

// Every directive of the real corpus compiles or yields located diagnostics, and each compiled
// module renders exactly what the original's interpolation gives for the same inputs (the
// reference interpreter in src/runtime/interpolate.ts is itself checked against the vectors).
const BUNDLES = ["rye-2026-02/system", "rye-2026-04/core", "rye-2026-04/standard", "rye-2026-04/code", "rye-2026-04/email", "rye-2026-04/web"];

/** A value of each declared type; Python str() of these is what the original would print. */
function sample(type: string, name: string): unknown {
  switch (type) {
    case "integer":
      return 42;
    case "number":
      return new PyFloat(2.5);
    case "boolean":
      return true;
    case "array":
      return ["a", `it's ${name}`];
    case "object":
      return { key: name, n: null, ok: false };
    default:
      return `value of ${name} {input:x} \${inputs.${name}}`;
  }
}

describe.skipIf(!hasShared)("corpus", () => {
  for (const bundle of BUNDLES) {
    const project = join(SHARED_DIR, "corpus", bundle);
    test(`${bundle}: every directive compiles or has located diagnostics; renders match the original`, async () => {
      expect(existsSync(project)).toBe(true);
      const { sources, diagnostics: readProblems } = readProject(project, ["directive"]);
      expect(readProblems).toEqual([]);
      expect(sources.length).toBeGreaterThan(0);
      const { dir, result } = compileToDir(sources);
      // RYE3008 is about the whole build: these builds read directives only, not the knowledge that holds the instruction.
      for (const d of result.diagnostics) if (d.code !== "RYE3008") expect(d.loc, `${d.code} ${d.message}`).toBeDefined();
      const failed = sources.filter((s) => !result.compiled.includes(s.id));
      for (const s of failed) {
        expect(result.diagnostics.some((d) => d.severity === "error" && d.loc?.source === s.path), s.path).toBe(true);
      }
      for (const s of sources.filter((x) => result.compiled.includes(x.id))) {
        const mod = await importDirective(dir, s.id);
        const parsed = parseDirective(s.text, s.path).data!;
        const declared = parsed.inputs ?? [];
        const everything = Object.fromEntries(declared.map((i) => [i.name, sample(i.type, i.name)]));
        const requiredOnly = Object.fromEntries(declared.filter((i) => i.required).map((i) => [i.name, sample(i.type, i.name)]));
        for (const inputs of [everything, requiredOnly]) {
          const withDefaults = { ...inputs };
          for (const i of declared) if (i.default !== undefined && !(i.name in withDefaults)) withDefaults[i.name] = i.default;
          const env = { USER_SPACE: "/home/u", AI_DIR: ".ai" };
          const expected = interpolateParsed(parsed, withDefaults, env);
          const actual = mod.render(inputs, { env });
          expect(actual.body, s.id).toBe(expected.body);
          expect(actual.content, s.id).toBe(expected.content);
          expect(actual.raw, s.id).toBe(expected.raw);
          expect(actual.actions, s.id).toEqual(expected.actions ?? []);
        }
      }
    }, 60_000);

    test(`${bundle}: every file of every kind is read or skipped by a documented rule, with no warning`, () => {
      const { sources, diagnostics } = readProject(project);
      expect(sources.some((s) => s.kind === "tool")).toBe(true);
      // The bundles hold package manifests beside their TypeScript tools and Cargo files beside the Rust
      // runtime: support files (RYE1012, info). Nothing there is of no kind (RYE1011) or unreadable.
      for (const d of diagnostics) {
        expect(d.code, `${d.loc?.source}: ${d.message}`).toBe("RYE1012");
        expect(d.loc?.source).toMatch(/^\.ai\/tools\/.*\.(json|toml)$/);
      }
    });
  }
});

if (!hasShared) test.skip(`corpus: ${SHARED_SKIP_REASON}`, () => {});
