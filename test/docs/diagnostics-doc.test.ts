import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { compileAgentConfig } from "../../src/agents/agent-config.js";
import { main } from "../../src/cli/main.js";
import { CODES } from "../../src/diagnostics/codes.js";
import { parseConfigText } from "../../src/project/read-config.js";
import { readSpaces } from "../../src/project/read-spaces.js";
import { build, formatDiagnostic } from "../../src/index.js";
import { formatTrustedKeyToml, signingKeyFrom, signItem } from "../../src/sign/index.js";
import { DOC_PATH, examples, generate, lineDiff, run, type DocApi } from "../../scripts/gen-diagnostics-doc.mjs";

// docs/diagnostics.md is generated from the fixtures and docs/diagnostics/entries.mjs; these tests
// keep it complete, current and true: every example shown is run (compiled with build(), or `rye`
// run on it in a temporary folder) and reports its code, and every fix is run and does not.
const api: DocApi = { build, formatDiagnostic, CODES, readSpaces, parseConfigText, compileAgentConfig, main, signItem, signingKeyFrom, formatTrustedKeyToml };
const codes = Object.keys(CODES).sort();
const all = examples(api);
const runnable = all.filter((ex) => ex.failing !== null);
const shownAsText = all.filter((ex) => ex.failing === null);
const doc = readFileSync(DOC_PATH, "utf8");
const severityOf = (code: string) => CODES[code as keyof typeof CODES][0];

/** The text outside fenced blocks (examples and the compiler's own messages are checked elsewhere). */
function prose(text: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of text.split("\n")) {
    const open = /^(`{3,})/.exec(line)?.[1];
    if (fence === null && open) fence = open;
    else if (fence !== null && line === fence) fence = null;
    else if (fence === null) out.push(line);
  }
  return out.join("\n");
}

describe("docs/diagnostics.md", () => {
  test("every code has an entry in docs/diagnostics/entries.mjs, and no entry names a code that does not exist", async () => {
    const { missing, extra } = await generate(api);
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  test("every code has exactly one section, headed by the code alone so that #rye1234 links to it", () => {
    const headings = [...doc.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(codes);
  });

  test("the document is what scripts/gen-diagnostics-doc.mjs writes (run it after changing a fixture or an entry)", async () => {
    expect(doc).toBe((await generate(api)).text);
  });

  test("its prose speaks to users: no reference to material they do not have", () => {
    expect(prose(doc)).not.toMatch(/\bseed\b|System [1-4]\b|decisions #|DR-007|the original\b/i);
  });
});

describe.each(runnable.map((ex) => [ex.code, ex] as const))("%s example", (code, ex) => {
  test("the failing example reports the code, with its severity", async () => {
    const reported = (await run(api, ex.failing!)).filter((d) => d.code === code);
    expect(reported.length).toBeGreaterThan(0);
    for (const d of reported) expect(d.severity).toBe(severityOf(code));
  });

  test("the fixed example does not", async () => {
    expect(ex.entry.fix?.length ?? 0).toBeGreaterThan(0);
    expect((await run(api, ex.fixed!)).filter((d) => d.code === code)).toEqual([]);
  });
});

describe("examples shown as text", () => {
  test.each(shownAsText.map((ex) => [ex.code, ex] as const))("%s names the suite that checks it and prints its code with its severity", (code, ex) => {
    const e = ex.entry.example;
    expect(e.checked_by).toMatch(/^test\/\S+\.test\.ts$/);
    expect(readFileSync(new URL(`../../${e.checked_by}`, import.meta.url), "utf8")).toContain(code);
    expect(e.output!.split("\n")[0]).toMatch(new RegExp(`^(\\S+:\\d+:\\d+ - )?${severityOf(code)} ${code}: `));
  });

  test("are only those that need a user that file permissions apply to, a full disk, or a compiler bug", () => {
    expect(shownAsText.map((ex) => ex.code)).toEqual(["RYE1010", "RYE8002", "RYE8006"]);
  });
});

test("the README links to the reference", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  expect(readme).toMatch(/\]\(docs\/diagnostics\.md\)/);
});

test("a fix is shown as the changed lines with one line of context", () => {
  expect(lineDiff("a\nb\nc\nd\ne\nf\n", "a\nb\nC\nd\ne\nf\n")).toBe(" b\n-c\n+C\n d\n");
  expect(lineDiff("a\nb\nc\nd\ne\nf\ng\n", "A\nb\nc\nd\ne\nf\nG\n")).toBe("-a\n+A\n b\n …\n f\n-g\n+G\n");
});
