// Every failure of a command is a non-zero exit with one line naming what and why, never a stack
// trace and never exit 0: a bundle path that is not a regular file (a device, a FIFO, a folder), and
// a language server started without a transport flag (stdio is its transport either way; a server
// that can no longer serve exits non-zero).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BIN, cleanEnv, makeGreetProject, node, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

let root: string;
let project: string;
beforeAll(() => {
  root = tempDir("rye-cli-failures-");
  project = makeGreetProject(join(root, "p"));
  mkdirSync(join(root, "folder.mjs"));
  execFileSync("mkfifo", [join(root, "fifo.mjs")]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("rye run of a bundle that is not a regular file", () => {
  const env = () => cleanEnv({ USER_SPACE: join(outsideOf(root), "user") });
  for (const bundle of ["/dev/null", "/dev/zero", "fifo.mjs", "folder.mjs"]) {
    for (const kind of ["directive", "tool"]) {
      test(`${kind} from ${bundle}: one located line, exit 1`, () => {
        const path = bundle.startsWith("/") ? bundle : join(root, bundle);
        const r = node(project, env(), BIN, "run", path, kind, "examples/greet", ...(kind === "tool" ? ["--project", project] : []));
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(new RegExp(`^error: ${path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: cannot read the bundle: it is an? (device|FIFO|folder|directory)`, "m"));
        expect(r.stderr).not.toMatch(/^\s+at /m);
      });
    }
  }
});

/** Runs `rye lsp ...args`, sends initialize (and shutdown + exit when `polite`), and resolves with the exit code and whether initialize was answered. */
function lsp(args: string[], polite: boolean): Promise<{ code: number | null; answered: boolean; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [BIN, "lsp", ...args], { cwd: project, env: cleanEnv({ USER_SPACE: join(outsideOf(root), "user") }) });
    const send = (o: object) => {
      const b = JSON.stringify(o);
      p.stdin.write(`Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`);
    };
    let out = "";
    let stderr = "";
    const timer = setTimeout(() => p.kill(), 20_000);
    p.stderr.on("data", (d) => (stderr += d));
    p.stdout.on("data", (d) => {
      out += d;
      if (!out.includes('"id":1')) return;
      if (!polite) p.stdin.end();
      else if (out.includes('"id":2')) send({ jsonrpc: "2.0", method: "exit" });
      else if (!out.includes("shutdown-sent")) (out += "shutdown-sent"), send({ jsonrpc: "2.0", id: 2, method: "shutdown" });
    });
    p.on("exit", (code) => (clearTimeout(timer), done({ code, answered: out.includes('"id":1'), stderr })));
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } });
  });
}

describe("rye lsp", () => {
  for (const args of [[], ["--stdio"]]) {
    test(`${args.join(" ") || "(no flag)"}: serves stdio, exits 0 after shutdown and exit`, async () => {
      const r = await lsp(args, true);
      expect(r).toMatchObject({ code: 0, answered: true });
      expect(r.stderr).not.toContain("uncaught");
    });

    test(`${args.join(" ") || "(no flag)"}: a client gone without shutdown is a non-zero exit`, async () => {
      const r = await lsp(args, false);
      expect(r.answered).toBe(true);
      expect(r.code).not.toBe(0);
      expect(r.code).not.toBeNull();
    });
  }

  test("an unknown transport flag is a usage error", () => {
    const r = node(project, cleanEnv({}), BIN, "lsp", "--socket=1");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Usage: rye lsp");
  });
});
