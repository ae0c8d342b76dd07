import { describe, expect, it } from "vitest";
import {
  contentHash,
  formatFor,
  formatSignatureLine,
  hashRegion,
  insertSignatureLine,
  NoDirectiveError,
  parseSignatureLine,
  pyStrip,
  removeSignatureLine,
  sha256Hex,
  signatureFormatFor,
  SignatureFormatError,
} from "../../src/sign/index.js";
import { kindFromPath, sniffMarkdownKind } from "../../src/sign/kind-from-path.js";

const TS = "2026-01-01T00:00:00Z";
const HASH = "ab".repeat(32);
const SIG = "S".repeat(86);
const FP = "0123456789abcdef";
const md = formatFor("knowledge");
const py = signatureFormatFor("tool", "t.py");
const js = signatureFormatFor("tool", "t.js");

describe("signature line formats", () => {
  it("chooses the comment style by kind and extension", () => {
    expect(formatFor("directive", "x.md")).toEqual({ prefix: "<!--", suffix: "-->", afterShebang: false });
    expect(py).toEqual({ prefix: "#", afterShebang: true });
    for (const ext of [".js", ".ts", ".mjs", ".cjs"]) expect(signatureFormatFor("tool", `a${ext}`).prefix).toBe("//");
    expect(signatureFormatFor("config", "a.toml")).toEqual({ prefix: "#", afterShebang: false });
    expect(signatureFormatFor("tool", "A.PY").prefix).toBe("#");
    expect(() => signatureFormatFor("config", "a.py")).toThrow(SignatureFormatError);
    expect(() => signatureFormatFor("tool", "Makefile")).toThrow("No signature format configured for extension '' (kind: tool, file: Makefile)");
  });

  it("round-trips a line, with and without padding and provenance", () => {
    for (const signature of [SIG, `${SIG.slice(0, 86)}==`]) {
      for (const extra of [{}, { registryProvider: "github", registryUsername: "leo" }]) {
        const info = { timestamp: TS, hash: HASH, signature, fingerprint: FP, ...extra };
        const mdLine = formatSignatureLine(md, info);
        expect(mdLine.endsWith(" -->\n")).toBe(true);
        expect(parseSignatureLine(mdLine + "body", md)).toEqual(info);
        const jsLine = formatSignatureLine(js, info);
        expect(jsLine.startsWith("// rye:signed:")).toBe(true);
        expect(parseSignatureLine(jsLine, js)).toEqual(info);
      }
    }
  });

  it("rejects malformed lines and lines not at the start", () => {
    const line = formatSignatureLine(md, { timestamp: TS, hash: HASH, signature: SIG, fingerprint: FP });
    expect(parseSignatureLine(line.toUpperCase(), md)).toBeNull();
    expect(parseSignatureLine(line.replace(" -->", "-->"), md)).toBeNull();
    expect(parseSignatureLine("\n" + line, md)).toBeNull();
    expect(parseSignatureLine("\ufeff" + line, md)).toBeNull();
    expect(parseSignatureLine(line.replace(SIG, `${SIG}===`), md)).toBeNull();
    expect(parseSignatureLine("<!-- rye:signed:TIMESTAMP:placeholder:unsigned:unsigned -->\n", md)).toBeNull();
  });

  it("finds a tool line after a shebang only where the format allows it", () => {
    const info = { timestamp: TS, hash: HASH, signature: SIG, fingerprint: FP };
    expect(parseSignatureLine("#!/usr/bin/env python3\n" + formatSignatureLine(py, info), py)).toEqual(info);
    expect(parseSignatureLine("#!/usr/bin/env node\n" + formatSignatureLine(js, info), js)).toBeNull();
  });

  it("removes one leading line (legacy spellings too), keeping shebangs and needing the newline", () => {
    expect(removeSignatureLine("<!-- rye:validated:x -->\n<!-- rye:signed:y -->\nz", md)).toBe("<!-- rye:signed:y -->\nz");
    expect(removeSignatureLine("<!-- kiwi-mcp:signed:x -->", md)).toBe("<!-- kiwi-mcp:signed:x -->");
    expect(removeSignatureLine("#!/bin/sh\n# rye:signed:x\necho\n", py)).toBe("#!/bin/sh\necho\n");
    expect(removeSignatureLine("// kiwi-mcp:validated:x\ncode\n", js)).toBe("code\n");
    expect(removeSignatureLine("x\n# rye:signed:x\n", py)).toBe("x\n# rye:signed:x\n");
  });

  it("inserts after a shebang for # tools, above it for // tools, replacing the old line", () => {
    expect(insertSignatureLine("#!/bin/sh\n# rye:signed:old\necho\n", "# NEW\n", py)).toBe("#!/bin/sh\n# NEW\necho\n");
    expect(insertSignatureLine("#!/bin/sh", "# NEW\n", py)).toBe("#!/bin/sh\n# NEW\n");
    expect(insertSignatureLine("#!/usr/bin/env node\nx\n", "// NEW\n", js)).toBe("// NEW\n#!/usr/bin/env node\nx\n");
    expect(insertSignatureLine("<!-- rye:unsigned -->\nx", "<!-- NEW -->\n", md)).toBe("<!-- NEW -->\n<!-- rye:unsigned -->\nx");
  });
});

describe("hash regions", () => {
  const directive = "<!-- sig -->\n# T\n\n```xml\n<directive name=\"d\">\n  <x/>\n</directive>\n```\n<process>steps</process>\n";

  it("covers only <directive>…</directive> of a directive, stripped", () => {
    expect(hashRegion(directive, "directive")).toBe('<directive name="d">\n  <x/>\n</directive>');
    expect(contentHash(directive.replace("steps", "other"), "directive")).toBe(contentHash(directive, "directive"));
    expect(() => hashRegion("```xml\n<directive/>\n```", "directive")).toThrow(NoDirectiveError);
    expect(() => hashRegion("</directive><directive>", "directive")).toThrow("No XML directive found in content");
  });

  it("covers a knowledge file minus its line, or only the text after --- frontmatter", () => {
    const line = formatSignatureLine(md, { timestamp: TS, hash: HASH, signature: SIG, fingerprint: FP });
    expect(hashRegion(`${line}<!-- rye:unsigned -->\nbody\n`, "knowledge")).toBe("<!-- rye:unsigned -->\nbody\n");
    expect(hashRegion(`${line}---\na: 1\n---\n\n body \n`, "knowledge")).toBe("body");
    expect(hashRegion("---\nno close\n", "knowledge")).toBe("---\nno close\n");
  });

  it("covers a tool minus shebang and line", () => {
    expect(hashRegion("#!/usr/bin/env python3\n# rye:signed:x\nprint(1)\n", "tool", "t.py")).toBe("print(1)\n");
    expect(hashRegion("// rye:signed:x\n#!/usr/bin/env node\nx\n", "tool", "t.js")).toBe("x\n");
  });

  it("normalises CRLF and CR as Python's text mode does, and strips like str.strip()", () => {
    expect(contentHash("a\r\nb\rc\n", "tool", "t.py")).toBe(sha256Hex("a\nb\nc\n"));
    expect(pyStrip("\x1c\x85 x \u3000")).toBe("x");
    expect(pyStrip("\ufeffx")).toBe("\ufeffx");
  });
});

describe("kind from path", () => {
  it("maps paths to kinds", () => {
    expect(kindFromPath("p/.ai/directives/a/b.md")).toBe("directive");
    expect(kindFromPath("p/.ai/knowledge/a/b.md")).toBe("knowledge");
    expect(kindFromPath("p/.ai/tools/a/b.ts")).toBe("tool");
    expect(kindFromPath("p/.ai/tools/a/package.json")).toBeNull();
    expect(kindFromPath("p/.ai/config/keys/trusted/x.toml")).toBe("config");
    expect(kindFromPath("p/.ai/bundles/b/manifest.yaml")).toBe("tool");
    expect(kindFromPath("out/directives/x.js")).toBe("module");
    expect(kindFromPath("out/rye-manifest.json")).toBe("manifest");
    expect(kindFromPath("README.md")).toBeNull();
    expect(sniffMarkdownKind('```xml\n<directive name="x">')).toBe("directive");
    expect(sniffMarkdownKind("# notes")).toBe("knowledge");
  });
});
