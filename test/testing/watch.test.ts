import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { loadProject } from "../../src/builder/load-project.js";
import { watchTests } from "../../src/testing/watch-tests.js";
import type { SessionOptions } from "../../src/testing/test-session.js";
import { testUserSpace } from "../helpers/cli.js";
import { HI, hiCase, projectWith } from "./project.js";

test("rye test --watch runs again when a source or a test file changes, and stops when asked", { timeout: 60_000 }, async () => {
  const dir = projectWith({ "directives/t/hi.test.yaml": hiCase("inputs: {who: Ada}\nexpect:\n  body:\n    contains: Say hi to Ada") });
  const user = testUserSpace();
  const options: SessionOptions = {
    root: dir,
    userSpace: user,
    source: { kind: "sources" },
    readProject: () => loadProject({ project: dir, userSpace: user, cwd: dir, env: {} }),
    trustedKeys: [],
    selection: { filters: [], pattern: null },
    reporter: "human",
    update: false,
    ci: true,
    runTools: false,
    coverage: false,
    passWithNoTests: false,
  };
  let out = "";
  const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (out += s) }, cwd: dir, env: {}, color: false };
  const stop = new AbortController();
  const until = async (text: string) => {
    for (let i = 0; i < 400 && !out.includes(text); i++) await new Promise((r) => setTimeout(r, 50));
    expect(out).toContain(text);
  };
  const done = watchTests(options, io, stop.signal);
  await until("Tests: 1 passed (1)");
  out = "";
  writeFileSync(join(dir, ".ai", "directives", "t", "hi.md"), HI.replace("Say hi to", "Wave at"));
  await until("Tests: 0 passed, 1 failed (1)");
  out = "";
  writeFileSync(join(dir, ".ai", "tests", "directives", "t", "hi.test.yaml"), hiCase("inputs: {who: Ada}\nexpect:\n  body:\n    contains: Wave at Ada"));
  await until("Tests: 1 passed (1)");
  stop.abort();
  expect(await done).toBe(0);
});
