import { describe, expect, it } from "vitest";
import { PyFloat } from "../../src/runtime/pystr.js";
import { readJsMetadata } from "../../src/tools/read-js-metadata.js";

// The declaration patterns are the original's (rye-reference §1.8); object literals are read as data.
describe("readJsMetadata", () => {
  it("reads dunder string and null constants with or without export, const/let/var", () => {
    const src = [
      `export const __version__ = "1.0.0";`,
      `const __tool_type__ = 'javascript';`,
      `let __category__ = "rye/code"`,
      `var __executor_id__ = null;`,
      `export const __tool_description__ = null;`,
      `export const __tool_description__ = "later string wins over null";`,
    ].join("\n");
    expect(readJsMetadata(src).values).toEqual({
      __version__: "1.0.0",
      __tool_type__: "javascript",
      __category__: "rye/code",
      __executor_id__: null,
      __tool_description__: "later string wins over null",
    });
  });

  it("keeps the original regex's cut at the first quote of either kind", () => {
    expect(readJsMetadata(`const __d__ = "it's";`).values.__d__).toBe("it");
  });

  it("finds nothing in a truncated assignment", () => {
    expect(readJsMetadata(`export const __tool_description__ =\n`).values).toEqual({});
  });

  it("parses CONFIG_SCHEMA, ENV_CONFIG and CONFIG as data literals", () => {
    const src = `
export const CONFIG_SCHEMA = {
  type: "object", // comment with a } brace
  properties: {
    url: { type: 'string', default: "https://example.com/a" },
    'quoted-key': { type: "string", description: "it's fine" },
    ratio: { type: "number", default: 1.0 },
    n: { default: -3 },
    flags: { type: "object", description: "Flags (e.g. { save_dev: true })" },
  },
  required: ["url",],
  /* block */
};
const ENV_CONFIG: EnvConfig = { env: { NODE_ENV: \`production\` } };
export const CONFIG = { timeout: 0x10, flags: [true, false, null] };
`;
    const result = readJsMetadata(src);
    expect(result.problems).toEqual([]);
    expect(result.values).toEqual({
      CONFIG_SCHEMA: {
        type: "object",
        properties: {
          url: { type: "string", default: "https://example.com/a" },
          "quoted-key": { type: "string", description: "it's fine" },
          ratio: { type: "number", default: new PyFloat(1) },
          n: { default: -3 },
          // The original's key-quoting regex rewrites text inside this string, so it loses the whole schema.
          flags: { type: "object", description: "Flags (e.g. { save_dev: true })" },
        },
        required: ["url"],
      },
      ENV_CONFIG: { env: { NODE_ENV: "production" } },
      CONFIG: { timeout: 16, flags: [true, false, null] },
    });
    expect(result.spans.CONFIG_SCHEMA?.start).toMatchObject({ line: 2, column: 30 });
  });

  it("misses an object behind a generic type annotation, as the original regex does", () => {
    expect(readJsMetadata(`export const CONFIG: Record<string, unknown> = { a: 1 };`).values).toEqual({});
  });

  it("reports an object literal holding code, with its location", () => {
    const result = readJsMetadata(`export const CONFIG = {\n  cwd: process.cwd(),\n};`);
    expect(result.values).toEqual({});
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.message).toMatch(/CONFIG is not a data literal: `process` is code/);
    expect(result.problems[0]!.span.start).toMatchObject({ line: 2, column: 8 });
  });

  it("rejects spreads and template substitutions", () => {
    expect(readJsMetadata("const CONFIG = { ...base };").problems[0]!.message).toMatch(/spread/);
    expect(readJsMetadata("const CONFIG = { a: `x${y}` };").problems[0]!.message).toMatch(/template literal/);
  });
});
