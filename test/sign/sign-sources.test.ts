// `rye sign`: every item it signs verifies under the original's rules, byte for byte as the
// original's sign_content writes it (the public vectors), and a project it signed passes
// `rye build --verify-sources` once its key is trusted.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { NoDirectiveError, signSource, trustStoreFromPems, verifyItem, type ItemKind } from "../../src/sign/index.js";
import { hasShared, SHARED_SKIP_REASON, vectorsFor } from "../helpers/shared.js";
import { TEST_KEY, freshKey } from "./fixtures.js";

const TS = "2026-05-01T12:00:00Z";
const trusting = (...keys: { publicPem: string; fingerprint: string }[]) => trustStoreFromPems(Object.fromEntries(keys.map((k) => [k.fingerprint, k.publicPem])));

const DIRECTIVE = '# D\n\n```xml\n<directive name="d" version="1.0.0">\n  <metadata><description>D</description></metadata>\n</directive>\n```\n\nStep {input:x}.\n';
/** One item of every kind and extension the original signs, as [kind, file name, text]. */
const ITEMS: [ItemKind, string, string][] = [
  ["directive", "d.md", DIRECTIVE],
  ["directive", "marked.md", `<!-- rye:unsigned -->\n${DIRECTIVE}`],
  ["knowledge", "k.md", "---\nname: k\n---\n\nBody\n"],
  ["knowledge", "k.yaml", "name: k\ncontent: body\n"],
  ["tool", "t.py", "#!/usr/bin/env python3\n__version__ = '1.0.0'\nprint('hi')\n"],
  ["tool", "t.yaml", "tool_type: runtime\nexecutor_id: x\n"],
  ["tool", "t.js", "#!/usr/bin/env node\nconsole.log(1)\n"],
  ["tool", "t.ts", "export const x = 1;\n"],
  ["tool", "t.sh", "#!/bin/sh\necho hi\n"],
  ["config", "c.yaml", "key: value\n"],
  ["config", "c.toml", "key = 'value'\n"],
];

describe("signSource", () => {
  test.each(ITEMS)("%s %s: verifies under the original's rules", (kind, name, text) => {
    const key = freshKey();
    const signed = signSource(text, kind, name, key, TS);
    expect(signed.status).toBe("signed");
    const r = verifyItem(signed.text, kind, trusting(key), { path: `p/.ai/x/${name}` });
    expect(r.message).toBe("");
    expect(r.outcome).toBe("verified");
    // Signed once more by the same key: nothing to do.
    expect(signSource(signed.text, kind, name, key, "2027-01-01T00:00:00Z")).toEqual({ text: signed.text, status: "unchanged", previous: expect.objectContaining({ fingerprint: key.fingerprint }) });
  });

  test("re-signing a stale item, or one signed by another key, replaces its line", () => {
    const [a, b] = [freshKey(), freshKey()];
    const first = signSource(DIRECTIVE, "directive", "d.md", a, TS).text;
    const edited = first.replace("<description>D</description>", "<description>Edited</description>");
    expect(verifyItem(edited, "directive", trusting(a)).outcome).toBe("hash_mismatch");
    const again = signSource(edited, "directive", "d.md", a, "2026-06-01T00:00:00Z");
    expect(again.status).toBe("re-signed");
    expect(again.text.split("\n").filter((l) => l.includes("rye:signed:"))).toHaveLength(1);
    expect(again.text.startsWith("<!-- rye:signed:2026-06-01T00:00:00Z:")).toBe(true);
    expect(verifyItem(again.text, "directive", trusting(a)).outcome).toBe("verified");
    const other = signSource(again.text, "directive", "d.md", b, TS);
    expect(other.status).toBe("re-signed");
    expect(other.previous?.fingerprint).toBe(a.fingerprint);
    expect(verifyItem(other.text, "directive", trusting(b)).outcome).toBe("verified");
    expect(verifyItem(other.text, "directive", trusting(a)).outcome).toBe("untrusted");
  });

  test("a file written with CRLF stays CRLF and verifies; a directive without <directive> is refused", () => {
    const key = freshKey();
    const crlf = DIRECTIVE.replace(/\n/g, "\r\n");
    const signed = signSource(crlf, "directive", "d.md", key, TS).text;
    expect(signed.replace(/\r\n/g, "")).not.toContain("\n");
    expect(verifyItem(signed, "directive", trusting(key)).outcome).toBe("verified");
    expect(() => signSource("# no directive\n", "directive", "d.md", key, TS)).toThrow(NoDirectiveError);
  });

  const vectors = hasShared ? vectorsFor("signature").filter((v) => v.function.includes("sign_content")) : [];
  test.skipIf(!hasShared)(`writes what the original's sign_content writes (public vectors)${hasShared ? "" : ` (skipped: ${SHARED_SKIP_REASON})`}`, () => {
    expect(vectors.length).toBeGreaterThan(0);
    for (const v of vectors) {
      const out = signSource(v.input, v.kind as ItemKind, v.filename, TEST_KEY, v.params.timestamp).text;
      if (v.expected !== undefined) expect(out, v.id).toBe(v.expected);
      for (const c of v.expected_contains ?? []) if (c.op === "contains") expect(out, v.id).toContain(c.value as string);
    }
  });
});

const BIN = fileURLToPath(new URL("../../bin/rye.js", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("rye sign", () => {
  test("signs a project so that rye build --verify-sources passes once its key is trusted", () => {
    const base = mkdtempSync(join(tmpdir(), "rye-sign-"));
    const project = join(base, "project");
    cpSync(join(ROOT, ".ai"), join(project, ".ai"), { recursive: true });
    const env = (user: string) => ({ ...process.env, USER_SPACE: join(base, user), NO_COLOR: "1", RYE_TRUSTED_KEYS: "" });
    const rye = (user: string, ...args: string[]) => {
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd: project, encoding: "utf8", env: env(user) });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };
    // Unsigned sources: refused, and the message names the command that fixes it.
    const before = rye("alice", "build", "--verify-sources");
    expect(before.code).toBe(1);
    expect(before.err).toMatch(/RYE5002: Unsigned item: \.ai\/directives\/examples\/greet\.md: --verify-sources requires every item to be signed; sign it with rye sign \.ai\/directives\/examples\/greet\.md/);

    // Signed by bob's key, which nobody trusted yet: untrusted.
    const tool = join(project, ".ai", "tools", "examples", "word_count.py");
    chmodSync(tool, 0o750);
    const signed = rye("bob", "sign");
    expect(signed.code, signed.err).toBe(0);
    expect(signed.out).toMatch(/^signed +directive +\.ai\/directives\/examples\/greet\.md$/m);
    expect(signed.out).toMatch(/^signed +tool +\.ai\/tools\/examples\/word_count\.py$/m);
    expect(statSync(tool).mode & 0o777).toBe(0o750);
    expect(rye("alice", "build", "--verify-sources").err).toMatch(/RYE5003: Untrusted key/);

    // bob trusts his key in the project's space: every item verifies, and the build passes.
    const pem = join(base, "bob", ".ai", "config", "keys", "signing", "public_key.pem");
    expect(rye("bob", "keys", "trust", "--space", project, pem).code).toBe(0);
    const verify = rye("alice", "verify", ".ai");
    expect(verify.code, verify.out + verify.err).toBe(0);
    const build = rye("alice", "build", "--verify-sources");
    expect(build.code, build.err).toBe(0);

    // An edit after signing is RYE5001 naming the command; rye sign on that file fixes it, alone.
    const greet = join(project, ".ai", "directives", "examples", "greet.md");
    writeFileSync(greet, readFileSync(greet, "utf8").replace("</metadata>", "  <!-- edited -->\n  </metadata>"));
    const stale = rye("alice", "build", "--verify-sources");
    expect(stale.err).toMatch(/RYE5001: Integrity failed: .*re-sign it with rye sign \.ai\/directives\/examples\/greet\.md/);
    const again = rye("bob", "sign", "directive:examples/greet");
    expect(again.out).toMatch(/^re-signed +directive +\.ai\/directives\/examples\/greet\.md/m);
    expect(again.out).toMatch(/Signed 1 items/);
    expect(readFileSync(greet, "utf8").match(/rye:signed:/g)).toHaveLength(1);
    expect(rye("alice", "build", "--verify-sources").code).toBe(0);

    // Everything else was left alone the second time.
    expect(rye("bob", "sign").out).toMatch(/Signed 0 items with key [0-9a-f]{16} \(13 already signed, 0 failed\)/);
  }, 60_000);

  test("refuses build output and files whose kind it cannot tell, and names unknown references", () => {
    const base = mkdtempSync(join(tmpdir(), "rye-sign-"));
    writeFileSync(join(base, "index.js"), "// @generated by rye build\n");
    writeFileSync(join(base, "notes.txt"), "x");
    const r = spawnSync(process.execPath, [BIN, "sign", "index.js", "notes.txt", "tool:nope/none"], { cwd: base, encoding: "utf8", env: { ...process.env, USER_SPACE: base } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("index.js: build output is signed by rye build, not rye sign");
    expect(r.stderr).toContain("notes.txt: cannot tell what kind of item this is; pass --kind");
    expect(r.stderr).toContain("tool:nope/none: no tool 'nope/none' under");
    expect(readFileSync(join(base, "index.js"), "utf8")).toBe("// @generated by rye build\n");
  });
});
