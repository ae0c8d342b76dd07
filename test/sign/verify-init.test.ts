// `rye init && rye build && rye verify` passes: the scaffolded sources are unsigned, which verify
// reports and accepts, while --require-signed-sources refuses them until rye sign signs them.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { runRye, testUserSpace } from "../helpers/cli.js";

test("a new project builds and verifies; its unsigned sources are named, and refused only when signed sources are required", async () => {
  const user = testUserSpace();
  const dir = mkdtempSync(join(tmpdir(), "rye-init-verify-"));
  const rye = (...args: string[]) => runRye(args, dir, { USER_SPACE: user });
  expect((await rye("init")).code).toBe(0);
  expect((await rye("build")).code).toBe(0);
  const verified = await rye("verify");
  expect(verified.stderr).toBe("");
  expect(verified.code).toBe(0);
  expect(verified.stdout).toMatch(/^unsigned\s+directive\s+\.ai\/directives\/hello\/summarize\.md  not signed$/m);
  const summary = verified.stdout.trim().split("\n").at(-1)!;
  expect(summary).toMatch(/^(\d+) of \d+ files verified, \d+ unsigned sources? accepted \(rye sign signs them; --require-signed-sources refuses them\)\.$/);
  expect(summary).not.toMatch(/failed/);

  const strict = await rye("verify", "--require-signed-sources");
  expect(strict.code).toBe(1);
  expect(strict.stdout).toMatch(/Unsigned item: \.ai\/directives\/hello\/summarize\.md/);

  // The advice, followed: rye sign signs them with this machine's key (the build made it), and then signed sources are all there is.
  expect((await rye("sign")).code).toBe(0);
  const signed = await rye("verify", "--require-signed-sources");
  expect(signed.stdout).not.toMatch(/^unsigned/m);
  expect(signed.code).toBe(0);
});
