import { describe, expect, test } from "vitest";
import { projectWith, ryeTest } from "./project.js";

const FILE = [
  "cases:",
  "  - name: passes",
  "    inputs: {who: Ada}",
  "    expect:",
  "      body:",
  "        contains: Ada",
  "  - name: 'fails <with> & \"markup\" # and a hash'",
  "    inputs: {who: Ada}",
  "    expect:",
  "      body:",
  "        contains: \"Bo & <Cy>\"",
  "  - name: is skipped",
  "    skip: true",
  "    inputs: {who: Ada}",
  "    expect:",
  "      body:",
  "        contains: Ada",
  "",
].join("\n");

const NOW = "2026-01-02T03:04:05Z";

interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/**
 * A strict reader for the XML a JUnit report uses (declaration, elements, attributes, character
 * data and the five predefined entities): throws on anything not well-formed, so the test fails.
 */
function parseXml(xml: string): XmlElement {
  let i = 0;
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(xml);
  if (!decl) throw new Error("no XML declaration");
  i = decl[0].length;
  const entity = (s: string) => {
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(s)) throw new Error(`bad entity in ${s}`);
    return s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" })[e]!);
  };
  const element = (): XmlElement => {
    const open = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/.exec(xml.slice(i));
    if (!open) throw new Error(`expected an element at ${i}: ${xml.slice(i, i + 30)}`);
    i += open[0].length;
    const attrs: Record<string, string> = {};
    for (const m of open[2]!.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
      if (m[1]! in attrs) throw new Error(`duplicate attribute ${m[1]}`);
      attrs[m[1]!] = entity(m[2]!);
    }
    const el: XmlElement = { name: open[1]!, attrs, children: [], text: "" };
    if (open[3] === "/") return el;
    for (;;) {
      const text = /^[^<]*/.exec(xml.slice(i))![0];
      el.text += entity(text);
      i += text.length;
      if (xml.startsWith(`</${el.name}>`, i)) {
        i += el.name.length + 3;
        return el;
      }
      if (xml.startsWith("</", i)) throw new Error(`mismatched close at ${i}`);
      el.children.push(element());
    }
  };
  const root = element();
  if (xml.slice(i).trim() !== "") throw new Error("content after the root element");
  return root;
}

describe("reporters", () => {
  const dir = projectWith({ "directives/t/hi.test.yaml": FILE });

  test("JUnit XML is well-formed and has what the common (Ant/Jenkins) schema requires", async () => {
    const r = await ryeTest(dir, "--reporter", "junit", "--now", NOW, "--ci");
    expect(r.code).toBe(1);
    const root = parseXml(r.stdout);
    expect(root.name).toBe("testsuites");
    expect(root.attrs).toMatchObject({ tests: "3", failures: "1", errors: "0", skipped: "1" });
    expect(root.children).toHaveLength(1);
    const suite = root.children[0]!;
    expect(suite.name).toBe("testsuite");
    // junit-4.xsd: a testsuite requires name, timestamp (xs:dateTime without a zone), hostname, tests, failures, errors, time,
    // and the elements properties, system-out and system-err.
    for (const a of ["name", "timestamp", "hostname", "tests", "failures", "errors", "time"]) expect(suite.attrs).toHaveProperty(a);
    expect(suite.attrs.timestamp).toBe("2026-01-02T03:04:05");
    expect(suite.attrs).toMatchObject({ name: "directive t/hi", tests: "3", failures: "1", errors: "0" });
    expect(suite.children.map((c) => c.name)).toEqual(["properties", "testcase", "testcase", "testcase", "system-out", "system-err"]);
    const cases = suite.children.filter((c) => c.name === "testcase");
    for (const c of cases) {
      for (const a of ["name", "classname", "time"]) expect(c.attrs).toHaveProperty(a);
      expect(Number.isFinite(Number(c.attrs.time))).toBe(true);
    }
    expect(cases[1]!.attrs.name).toBe('fails <with> & "markup" # and a hash');
    const failure = cases[1]!.children[0]!;
    expect(failure.name).toBe("failure");
    expect(failure.attrs.type).toBeTruthy();
    expect(failure.text).toContain('expected to contain "Bo & <Cy>"');
    expect(failure.text).toContain(".ai/tests/directives/t/hi.test.yaml:11:");
    expect(cases[2]!.children.map((c) => c.name)).toEqual(["skipped"]);
    expect(cases[0]!.children).toEqual([]);
  });

  test("the same run reports the same bytes when --now fixes the clock", async () => {
    const a = await ryeTest(dir, "--reporter", "junit", "--now", NOW, "--ci");
    const b = await ryeTest(dir, "--reporter", "junit", "--now", NOW, "--ci");
    expect(a.stdout).toBe(b.stdout);
  });

  test("TAP version 14: a plan, ok / not ok with a YAML block, # SKIP, and # in names escaped", async () => {
    const r = await ryeTest(dir, "--reporter", "tap", "--ci");
    const lines = r.stdout.split("\n");
    expect(lines.slice(0, 3)).toEqual(["TAP version 14", "1..3", "ok 1 - directive t/hi › passes"]);
    expect(lines[3]).toBe('not ok 2 - directive t/hi › fails <with> & "markup" \\# and a hash');
    expect(lines[4]).toBe("  ---");
    expect(r.stdout).toContain("  ...\nok 3 - directive t/hi › is skipped # SKIP skip: true\n");
  });

  test("JSON: counts and each case with its failures' lines; --output-file writes it and prints the human report", async () => {
    const r = await ryeTest(dir, "--json", "--ci");
    const report = JSON.parse(r.stdout);
    expect(report.counts).toEqual({ passed: 1, failed: 1, skipped: 1, total: 3 });
    expect(report.results[1]).toMatchObject({ kind: "directive", id: "t/hi", status: "failed", failures: [{ field: "body", line: 11, column: 19 }] });
    const { readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const file = await ryeTest(dir, "--reporter", "junit", "--output-file", "report.xml", "--ci");
    expect(readFileSync(join(dir, "report.xml"), "utf8")).toMatch(/^<\?xml/);
    expect(file.stdout).toContain("✗ directive t/hi › fails");
    expect(file.stdout).toContain("Tests: 1 passed, 1 failed, 1 skipped (3)");
  });
});
