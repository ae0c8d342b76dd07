// JUnit XML as Ant writes it and Jenkins, GitLab and GitHub read it: <testsuites> of one
// <testsuite> per test file, each with the attributes and the <properties>, <system-out> and
// <system-err> elements the common schema requires, a <testcase> per case.
import type { Report } from "../run-tests.js";
import type { CaseResult } from "../case-result.js";
import { at, bySuite } from "./names.js";

/** Text as XML character data or an attribute value: markup escaped, characters XML 1.0 cannot hold replaced. */
export function xmlText(s: string): string {
  return s
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function junitReport(report: Report): string {
  // The schema's timestamp is an xs:dateTime without a zone.
  const timestamp = report.startedAt.slice(0, 19);
  const suites = bySuite(report.results).map(([name, results], i) => suite(name, results, i, timestamp));
  const { total, failed, skipped } = report.counts;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="rye test" tests="${total}" failures="${failed}" errors="0" skipped="${skipped}" time="${seconds(report.durationMs)}">\n${suites.join("")}</testsuites>\n`;
}

function suite(name: string, results: CaseResult[], id: number, timestamp: string): string {
  const time = results.reduce((s, r) => s + r.durationMs, 0);
  const failures = results.filter((r) => r.status === "failed").length;
  const skipped = results.filter((r) => r.status === "skipped").length;
  const file = results[0]!.file.path;
  const cases = results.map((r) => testcase(name, r)).join("");
  return `  <testsuite name="${xmlText(name)}" id="${id}" package="rye" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(time)}" timestamp="${timestamp}" hostname="localhost" file="${xmlText(file)}">\n    <properties/>\n${cases}    <system-out/>\n    <system-err/>\n  </testsuite>\n`;
}

function testcase(suiteName: string, r: CaseResult): string {
  const head = `    <testcase name="${xmlText(r.test.name)}" classname="${xmlText(suiteName)}" time="${seconds(r.durationMs)}" file="${xmlText(r.file.path)}" line="${r.test.loc.start.line}"`;
  if (r.status === "passed") return `${head}/>\n`;
  if (r.status === "skipped") return `${head}>\n      <skipped message="${xmlText(r.reason ?? "skipped")}"/>\n    </testcase>\n`;
  const body = r.failures.map((f) => `${at(f.loc)} ${f.field}: ${f.message}`).join("\n\n");
  const first = r.failures[0]!;
  return `${head}>\n      <failure message="${xmlText(`${first.field}: ${first.message.split("\n")[0]}`)}" type="${xmlText(first.field)}">${xmlText(body)}</failure>\n    </testcase>\n`;
}
