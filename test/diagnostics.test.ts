import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { CODES } from "../src/diagnostics/codes.js";
import { build } from "../src/index.js";

// One fixture per diagnostic code: `<case>.md` and `<case>.expected.json` listing every
// diagnostic (code, line, column) the case must produce — no more, no fewer. A case whose name
// ends in `_knowledge` is compiled as a knowledge item, any other as a directive.
const dir = fileURLToPath(new URL("./fixtures/diagnostics/", import.meta.url));
const cases = readdirSync(dir).filter((f) => f.endsWith(".md")).map((f) => f.slice(0, -3)).sort();

/** Codes whose fixtures are not single `.md` files, with the test that asserts their code, line and column. */
const CLI_ONLY = new Set([
  "RYE1003", // test/cli/build.test.ts: a file on disk that is not UTF-8
  "RYE1004", // test/cli/build.test.ts: two files for one item id
  "RYE5001", // test/sign/check-sources.test.ts: needs a signed source and a trust store
  "RYE5002",
  "RYE5003",
  "RYE5004",
  "RYE7001", // test/agents/launch.test.ts: agent configuration TOML
  "RYE7002",
  "RYE7003",
  "RYE7004",
  "RYE1005", // test/matrix/bad-input.test.ts: project trees on disk (limits, symlinks, permissions, ids)
  "RYE1007",
  "RYE8001",
  "RYE8002",
  "RYE8003",
  "RYE8004",
  "RYE8005",
  "RYE8006", // test/output/write-failures.test.ts: a full disk (a tiny tmpfs, or an injected write) and permissions
  // test/tools/diagnostics.test.ts: tool chains need several files, so each fixture is a small project in test/fixtures/tools/
  ...Object.keys(CODES).filter((c) => c.startsWith("RYE40")),
]);

describe("diagnostic fixtures", () => {
  test.each(cases)("%s", (name) => {
    const text = readFileSync(`${dir}${name}.md`, "utf8");
    const expected = JSON.parse(readFileSync(`${dir}${name}.expected.json`, "utf8"));
    const kind = name.endsWith("_knowledge") ? "knowledge" : "directive";
    const { diagnostics } = build([{ kind, id: `fixtures/${name}`, path: `${name}.md`, text }], "test");
    const actual = diagnostics.map((d) => ({ code: d.code, line: d.loc?.start.line, column: d.loc?.start.column }));
    expect(actual).toEqual(expected);
    for (const d of diagnostics) expect(d.severity).toBe(CODES[d.code as keyof typeof CODES][0]);
  });

  test("every code has a fixture", () => {
    const covered = new Set(cases.flatMap((c) => JSON.parse(readFileSync(`${dir}${c}.expected.json`, "utf8")).map((e: { code: string }) => e.code)));
    const missing = Object.keys(CODES).filter((c) => !covered.has(c) && !CLI_ONLY.has(c));
    expect(missing).toEqual([]);
  });
});
