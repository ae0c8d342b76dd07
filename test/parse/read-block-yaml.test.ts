import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import { parseKnowledge } from "../../src/parse/parse-knowledge.js";
import { readBlockYaml } from "../../src/parse/read-block-yaml.js";
import { YAML_1_1 } from "../../src/parse/yaml-1-1-scalars.js";
import { SHARED_DIR, sharedRows } from "../helpers/shared.js";
import { editedText, filesUnder } from "../helpers/text-edits.js";

// Knowledge metadata is read with the yaml package's YAML 1.1 schema; the quick reader must agree.
const KNOWLEDGE = [
  "name: style-guide",
  'version: "1.2.0"',
  "category: rye/docs",
  "tags: [style, 'writing', \"docs\"]",
  "extends: ~",
  "enabled: yes",
  "mode: Off",
  "retries: 3",
  "mask: 0777",
  "ratio: 1.5e3",
  "plain_exp: 1e5",
  "hex: 0x1F",
  "duration: 1:30",
  "__proto__: kept",
  "toString: own",
  "owner:",
  "  name: Ada",
  "  roles:",
  "  - admin",
  "  - {scope: all, level: 2}",
  "notes: |",
  "  Line one.",
  "  Line two.",
  "",
].join("\n");

/** A value's exact shape, Dates and non-finite numbers told apart from strings. */
function shape(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, k: string, v: unknown) {
    const raw = this[k];
    if (raw instanceof Date) return { date: raw.getTime() };
    return typeof v === "number" && !Number.isFinite(v) ? { number: String(v) } : v;
  });
}

/** The quick reader declines the text or gives what `parse(text, { version: "1.1" })` gives. */
function agrees(text: string): boolean {
  const quick = readBlockYaml(text, YAML_1_1);
  if (quick === undefined) return true;
  let full: unknown;
  expect(() => (full = parseYaml(text, { version: "1.1", logLevel: "silent" })), text).not.toThrow();
  expect(shape(quick), text).toBe(shape(full));
  expect(Object.keys(quick as object)).toEqual(Object.keys(full as object));
  return true;
}

describe("readBlockYaml with the YAML 1.1 schema of knowledge metadata", () => {
  it("reads a knowledge item's metadata as the yaml package does", () => {
    const data = readBlockYaml(KNOWLEDGE, YAML_1_1) as Record<string, unknown>;
    expect(data).toBeDefined();
    // The yaml package's YAML 1.1 schema: `yes`/`Off` booleans, 0777 octal, 1:30 base 60, and (unlike
    // PyYAML, whose rules tools follow) `1e5` a number.
    expect(data).toMatchObject({ enabled: true, mode: false, mask: 511, ratio: 1500, plain_exp: 100000, hex: 31, duration: 90, extends: null });
    expect(Object.hasOwn(data, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(agrees(KNOWLEDGE)).toBe(true);
  });

  it("keeps timestamps as Dates, as the yaml package does", () => {
    const data = readBlockYaml("created_at: 2026-02-18T00:00:00Z\n", YAML_1_1) as { created_at: Date };
    expect(data.created_at).toBeInstanceOf(Date);
    expect(data.created_at.toISOString()).toBe("2026-02-18T00:00:00.000Z");
    expect(agrees("created_at: 2026-02-18T00:00:00Z\nday: 2026-01-01\n")).toBe(true);
  });

  it.each([
    ["a duplicate key", "a: 1\na: 2\n"],
    ["a timestamp key", "2026-01-01: day\n"],
    ["a merge key in a flow mapping", "a: {<<: {b: 1}}\n"],
  ])("declines %s, which the yaml package then reads", (_what, text) => {
    expect(readBlockYaml(text, YAML_1_1)).toBeUndefined();
  });

  it("gives up on nesting too deep for the stack, which parseKnowledge reports where it passes 128 levels (RYE1009), no crash", () => {
    const text = `a: ${"[".repeat(20000)}${"]".repeat(20000)}\n`;
    expect(readBlockYaml(text, YAML_1_1)).toBeUndefined();
    const parsed = parseKnowledge(text, "deep.yaml", ".yaml");
    // The top mapping is level 1, so the 128th bracket (column 3 + 127) opens level 129.
    expect(parsed.diagnostics.map((d) => [d.code, d.loc?.start.line, d.loc?.start.column])).toEqual([["RYE1009", 1, 131]]);
  });

  it("agrees with the yaml package on random edits (property)", () => {
    const tricky = [" ", "-", "- ", ":", ": ", "#", " #", "'", '"', "|", "[", "]", ",", "{", "}", "\n", "\n  ", "a", "1", ".5", "~", "<<", "yes", "0x", "_", "2026-02-18", "T10:00:00Z"];
    fc.assert(
      fc.property(editedText(KNOWLEDGE, tricky), agrees),
      { numRuns: 3000, seed: 23 },
    );
  });
});

describe("readBlockYaml on the corpus's knowledge metadata", () => {
  const fences = filesUnder(join(SHARED_DIR, "corpus"), /\.md$/).flatMap((p) => [...readFileSync(p, "utf8").matchAll(/^```yaml\n([\s\S]*?)^```/gm)].map((m) => m[1]!));
  const rows = sharedRows("corpus knowledge YAML", fences.length ? [fences] : []);
  it.each(rows.map((r) => [r.length, r] as const))("agrees with the yaml package on all %i fences, and takes most of them", (_n, texts) => {
    let taken = 0;
    for (const text of texts) {
      agrees(text);
      if (readBlockYaml(text, YAML_1_1) !== undefined) taken++;
    }
    expect(taken / texts.length).toBeGreaterThan(0.8);
  });
});
