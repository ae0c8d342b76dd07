import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { SourceFile } from "../../src/index.js";
import { checkSourceSignatures } from "../../src/sign/check-sources.js";
import { formatTrustedKeyToml, signItem, trustStoreFromPems } from "../../src/sign/index.js";
import { captureIo, freshKey, TEST_KEY } from "./fixtures.js";
import { outsideOf } from "../helpers/outside.js";

// Fixtures for RYE5001–RYE5004 (listed in test/diagnostics.test.ts as needing a signed file).
const DIRECTIVE = `# Greet

\`\`\`xml
<directive name="greet" version="1.0.0">
  <metadata><description>Says hello.</description></metadata>
  <inputs><input name="who" type="string" required="true">Who</input></inputs>
</directive>
\`\`\`

Hello {input:who}.
`;
const TS = "2026-01-01T00:00:00Z";
const signed = signItem(DIRECTIVE, "directive", TEST_KEY, TS, "greet.md");
const trusted = trustStoreFromPems({ [TEST_KEY.fingerprint]: TEST_KEY.publicPem });
const src = (text: string, id = "greet"): SourceFile => ({ kind: "directive", id, path: `.ai/directives/${id}.md`, text });
const summary = (ds: ReturnType<typeof checkSourceSignatures>) => ds.map((d) => ({ code: d.code, severity: d.severity, line: d.loc?.start.line, column: d.loc?.start.column }));

describe("source signatures in the build", () => {
  it("says nothing about unsigned, valid or untrusted items when not asked to verify", () => {
    expect(checkSourceSignatures([src(DIRECTIVE), src(signed), src(signItem(DIRECTIVE, "directive", freshKey(), TS, "greet.md"))], null)).toEqual([]);
  });

  it("RYE5001: a signed item whose metadata changed is a stale signature, pointing at the line, a warning unless verifying", () => {
    const stale = signed.replace("Says hello.", "Says hi.");
    const [warning] = checkSourceSignatures([src(stale)], null);
    expect(summary([warning!])).toEqual([{ code: "RYE5001", severity: "warning", line: 1, column: 6 }]);
    expect(warning!.message).toMatch(/^Integrity failed: \.ai\/directives\/greet\.md \(expected [0-9a-f]{16}…, got [0-9a-f]{16}…\)/);
    expect(summary(checkSourceSignatures([src(stale)], trusted))).toEqual([{ code: "RYE5001", severity: "error", line: 1, column: 6 }]);
  });

  it("a body edit keeps the signature valid, as the original hashes only the XML", () => {
    expect(checkSourceSignatures([src(signed.replace("Hello", "Goodbye"))], trusted)).toEqual([]);
  });

  it("RYE5002–RYE5004 with --verify-sources: unsigned, untrusted key, forged signature", () => {
    const other = signItem(DIRECTIVE, "directive", freshKey(), TS, "greet.md");
    const sig = /:([A-Za-z0-9_-]{86}):/.exec(signed)![1]!;
    const forged = signed.replace(sig, (sig[0] === "A" ? "B" : "A") + sig.slice(1));
    const ds = checkSourceSignatures([src(DIRECTIVE, "a"), src(other, "b"), src(forged, "c")], trusted);
    expect(summary(ds)).toEqual([
      { code: "RYE5002", severity: "error", line: 1, column: 1 },
      { code: "RYE5003", severity: "error", line: 1, column: 6 },
      { code: "RYE5004", severity: "error", line: 1, column: 6 },
    ]);
    expect(ds[0]!.message).toMatch(/^Unsigned item: \.ai\/directives\/a\.md/);
    expect(ds[1]!.message).toMatch(new RegExp(`^Untrusted key [0-9a-f]{16} for .*trusted keys: ${TEST_KEY.fingerprint}`));
    expect(ds[2]!.message).toMatch(/^Ed25519 signature verification failed/);
  });

  it("finds a tool's signature line after its shebang; a stale tool is left to its chain check (RYE4009)", () => {
    const tool = (key = TEST_KEY) => signItem("#!/usr/bin/env python3\n__version__ = '1.0.0'\n", "tool", key, TS, "t.py");
    const src = (text: string): SourceFile => ({ kind: "tool", id: "t", path: ".ai/tools/t.py", ext: ".py", text });
    expect(summary(checkSourceSignatures([src(tool(freshKey()))], trusted))).toEqual([{ code: "RYE5003", severity: "error", line: 2, column: 3 }]);
    expect(checkSourceSignatures([src(tool().replace("1.0.0", "1.0.1"))], null)).toEqual([]);
  });
});

describe("rye build --verify-sources", () => {
  it("writes nothing when a source fails, and builds when every source verifies under a trusted key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rye-verify-sources-"));
    mkdirSync(join(dir, ".ai", "directives"), { recursive: true });
    writeFileSync(join(dir, ".ai", "directives", "greet.md"), signed);
    writeFileSync(join(dir, ".ai", "directives", "loose.md"), DIRECTIVE.replace('name="greet"', 'name="loose"'));
    const env = { USER_SPACE: join(outsideOf(dir), "user") };
    const failing = captureIo(dir, env);
    expect(await main(["build", "--verify-sources"], failing.io)).toBe(1);
    expect(failing.err()).toMatch(/loose\.md:1:1 - error RYE5002: Unsigned item/);
    expect(failing.err()).toMatch(/greet\.md:1:6 - error RYE5003: Untrusted key f0ff50dacf109dea/);
    expect(failing.err()).toMatch(/--verify-sources failed: nothing was written/);
    expect(readdirSync(dir)).not.toContain("out");

    writeFileSync(join(dir, ".ai", "directives", "loose.md"), signItem(DIRECTIVE.replace('name="greet"', 'name="loose"'), "directive", TEST_KEY, TS, "loose.md"));
    mkdirSync(join(dir, ".ai", "config", "keys", "trusted"), { recursive: true });
    writeFileSync(join(dir, ".ai", "config", "keys", "trusted", `${TEST_KEY.fingerprint}.toml`), formatTrustedKeyToml(TEST_KEY.publicPem, { owner: "test" }));
    const passing = captureIo(dir, env);
    expect(await main(["build", "--verify-sources"], passing.io)).toBe(0);
    expect(passing.out()).toMatch(/Compiled 2 of 2 directives/);
    // Without the flag an untrusted signature is not the build's business.
    expect(await main(["build"], captureIo(dir, { USER_SPACE: join(outsideOf(dir), "user2") }).io)).toBe(0);
  });
});
