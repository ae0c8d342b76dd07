import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/project/config-schema.js";
import { parseConfigText, readConfig } from "../../src/project/read-config.js";

const root = join(import.meta.dirname, "..", "..");

describe("rye.config.json", () => {
  it("reads every known setting with its type", () => {
    const text = JSON.stringify({ $schema: "x", out: "build", system: ["a", "b"], verifySources: true });
    expect(parseConfigText(text, "rye.config.json", null)).toEqual({
      config: { out: "build", system: ["a", "b"], verifySources: true },
      source: "rye.config.json",
      diagnostics: [],
    });
  });

  it("reports an unknown key at the key, with a suggestion", () => {
    const text = '{\n  "out": "o",\n  "outt": "x"\n}\n';
    const [diag] = parseConfigText(text, "rye.config.json", null)!.diagnostics;
    expect(diag).toMatchObject({ code: "RYE9001", severity: "error", loc: { start: { line: 3, column: 3 }, end: { line: 3, column: 9 } } });
    expect(diag!.message).toContain("did you mean 'out'?");
  });

  it("refuses trusted keys as a setting: the checkout cannot pin its own anchors", () => {
    const { config, diagnostics } = parseConfigText('{"trustedKeys": ["evil.pem"]}', "rye.config.json", null)!;
    expect(config).toEqual({});
    expect(diagnostics.map((x) => x.code)).toEqual(["RYE9001"]);
  });

  it("reports a wrongly typed value at the value", () => {
    const text = '{"system": "one", "verbose": "yes"}';
    const diags = parseConfigText(text, "rye.config.json", null)!.diagnostics;
    expect(diags.map((x) => [x.code, x.loc!.start.column, x.message])).toEqual([
      ["RYE9002", 12, "Invalid configuration: 'system' takes an array of strings."],
      ["RYE9002", 30, "Invalid configuration: 'verbose' takes a boolean."],
    ]);
  });

  it("reports JSON syntax errors where they are", () => {
    const [diag] = parseConfigText('{\n  "out": "o",\n}', "rye.config.json", null)!.diagnostics;
    expect(diag).toMatchObject({ code: "RYE9002", loc: { start: { line: 3 } } });
  });

  it("falls back to package.json's rye key, and to nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-config-"));
    expect(readConfig(dir)).toEqual({ config: {}, source: null, diagnostics: [] });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "x" }));
    expect(readConfig(dir).source).toBeNull();
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "x", rye: { out: "dist/rye" } }));
    expect(readConfig(dir)).toMatchObject({ config: { out: "dist/rye" }, source: "package.json" });
    writeFileSync(join(dir, "rye.config.json"), JSON.stringify({ out: "first" }));
    expect(readConfig(dir)).toMatchObject({ config: { out: "first" }, source: "rye.config.json" });
  });

  it("ships a JSON Schema that matches the settings the reader knows", () => {
    const shipped = JSON.parse(readFileSync(join(root, "schema", "rye.config.schema.json"), "utf8"));
    expect(shipped).toEqual(configSchema());
  });
});
