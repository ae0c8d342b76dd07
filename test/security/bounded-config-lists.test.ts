// Every list a checkout's config names has a count bound, measured before any entry is used: a 1 MiB
// rye.config.json can hold 262,000 entries, and each entry of `system` is a space every command reads
// in full. Past the bound the whole list is a located RYE9002 at its first entry past it; within it,
// entries naming the same folder are collapsed before any work. The list keys are enumerated from the
// one settings list, so a list setting added later is covered without a new test.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CONFIG_KEYS } from "../../src/project/config-keys.js";
import { parseConfigText } from "../../src/project/read-config.js";
import { BIN, cleanEnv, makeGreetProject, node, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const LISTS = Object.entries(CONFIG_KEYS).flatMap(([name, entry]) => (entry[0] === "string[]" ? [[name, entry[2]] as const] : []));

let root: string;
beforeAll(() => {
  root = tempDir("rye-config-lists-");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("every list setting has a count bound", () => {
  test("the settings list has list settings, each with a small bound", () => {
    expect(LISTS.length).toBeGreaterThan(0);
    for (const [, max] of LISTS) expect(max).toBeGreaterThan(0), expect(max).toBeLessThanOrEqual(64);
  });

  for (const [name, max] of LISTS) {
    test(`'${name}': ${max} distinct entries are read, ${max + 1} are refused at the entry past the bound`, () => {
      const within = Array.from({ length: max }, (_, i) => `s${i}`);
      expect(parseConfigText(JSON.stringify({ [name]: within }), "rye.config.json", null)).toMatchObject({ config: { [name]: within }, diagnostics: [] });
      const past = [...within, "last"];
      const text = JSON.stringify({ [name]: past });
      const parsed = parseConfigText(text, "rye.config.json", null)!;
      expect(parsed.config).toEqual({});
      expect(parsed.diagnostics).toHaveLength(1);
      const at = text.indexOf('"last"') + 1;
      expect(parsed.diagnostics[0]).toMatchObject({ code: "RYE9002", severity: "error", loc: { start: { line: 1, column: at } } });
      expect(parsed.diagnostics[0]!.message).toContain(`at most ${max} entries and this list has ${max + 1}`);
    });

    test(`'${name}': entries naming the same folder are collapsed, first spelling kept, order kept`, () => {
      const text = JSON.stringify({ [name]: [".", "./", "a", "b", "a/", "./a", "b//", "."] });
      expect(parseConfigText(text, "rye.config.json", null)!.config).toEqual({ [name]: [".", "a", "b"] });
    });
  }
});

describe("a build refuses an oversized list before reading any space", () => {
  test("system: ['.'] x 262,000 (1 MiB) is one located error, exit 1, nothing built", () => {
    const dir = makeGreetProject(join(root, "big"));
    const text = JSON.stringify({ system: Array.from({ length: 262_000 }, () => ".") });
    writeFileSync(join(dir, "rye.config.json"), text);
    mkdirSync(join(outsideOf(root), "user"), { recursive: true });
    const r = node(dir, cleanEnv({ USER_SPACE: join(outsideOf(root), "user") }), BIN, "build", "--allow-unsigned");
    const max = CONFIG_KEYS.system[2]!;
    const column = `{"system":[${'".",'.repeat(max)}`.length + 1;
    expect(r.status).toBe(1);
    expect(`${r.stdout}${r.stderr}`).toContain(`rye.config.json:1:${column} - error RYE9002: Invalid configuration: 'system' takes at most ${max} entries and this list has 262000`);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });
});
