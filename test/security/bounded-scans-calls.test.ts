// The calls grammar (grammar/calls.peggy) allows blanks between a call's opening backtick and its
// callee; the quick test that skips bodies without calls must let those calls through to be checked.
import { describe, expect, test } from "vitest";
import { build } from "../../src/index.js";
import { source } from "../helpers/compile.js";

const directive = (body: string) =>
  `# t\n\n\`\`\`xml\n<directive name="t" version="1.0.0">\n  <metadata><description>d</description></metadata>\n</directive>\n\`\`\`\n\n${body}\n`;
const codesOf = (body: string) => build([source("t", directive(body))], "test").diagnostics.map((d) => d.code).filter((c) => c.startsWith("RYE6"));

describe("calls written with blanks after the backtick", () => {
  test.each(["`", "` ", "`\t", "`\n  ", "` \r\n"])("%j before the callee: the unknown target is reported", (opening) => {
    expect(codesOf(`Load ${opening}rye_load(item_type="knowledge", item_id="no/such/item")\`.`)).toEqual(["RYE6002"]);
  });

  test("a body without any call, or with a blank that is not the grammar's, gives no call diagnostic", () => {
    expect(codesOf("No calls, `code` and rye_load(item_id=\"x\") outside backticks.")).toEqual([]);
    expect(codesOf("`\u00a0rye_load(item_id=\"no/such/item\")`")).toEqual([]);
  });
});
