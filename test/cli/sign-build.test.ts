import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";
import { main } from "../../src/cli/main.js";
import { verifyModuleSource } from "../../src/runtime/verify-module.js";
import type { Io } from "../../src/cli/io.js";

const repoAi = fileURLToPath(new URL("../../.ai", import.meta.url));

function capture() {
  let text = "";
  return { stream: { write: (s: string) => ((text += s), true) } as unknown as Io["stdout"], text: () => text };
}

async function rye(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  const out = capture();
  const err = capture();
  const code = await main(args, { stdout: out.stream, stderr: err.stream, cwd, env });
  return { code, out: out.text(), err: err.text() };
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

function project() {
  const dir = mkdtempSync(join(tmpdir(), "rye-signed-"));
  cpSync(repoAi, join(dir, ".ai"), { recursive: true });
  // The user space lies inside the project, so its key does not vouch for the project's output: pin it.
  return { dir, env: { USER_SPACE: join(dir, "user"), PATH: process.env.PATH, RYE_TRUSTED_KEYS: join(dir, "user", ".ai", "config", "keys", "signing", "public_key.pem") } };
}

test("a key generated in a user space inside the project is not called trusted: the build says to pin it, as rye verify requires", async () => {
  const { dir, env } = project();
  const inside = { USER_SPACE: env.USER_SPACE, PATH: env.PATH };
  const pem = join(dir, "user", ".ai", "config", "keys", "signing", "public_key.pem");
  const built = await rye(dir, inside, "build");
  expect(built.code).toBe(0);
  expect(built.err).toContain(`Output signed with it is not trusted on this machine: rye verify does not use its user space for ${join(dir, "out")} (it is inside ${dir}, the project that holds the checked path).`);
  expect(built.err).toContain(`Pin its public key where the output is checked: RYE_TRUSTED_KEYS=${pem} or rye verify --trusted-key ${pem}`);
  expect(built.err).not.toContain("is trusted on this machine");
  // What the message says is what rye verify does.
  expect((await rye(dir, inside, "verify", "out")).code).toBe(1);
  expect((await rye(dir, inside, "verify", "out", "--trusted-key", pem)).code).toBe(0);
  // A user space outside the project: trusted here, as the message says.
  const other = mkdtempSync(join(tmpdir(), "rye-signed-user-"));
  rmSync(join(dir, "out"), { recursive: true });
  rmSync(join(dir, ".rye-cache"), { recursive: true, force: true }); // none when the user space is refused (decisions #23)
  const outside = { USER_SPACE: other, PATH: env.PATH };
  const again = await rye(dir, outside, "build");
  expect(again.err).toContain("Output signed with it is trusted on this machine.");
  expect((await rye(dir, outside, "verify", "out")).code).toBe(0);
});

test("rye build signs every module and the manifest; rye verify out/ passes; keys never reach out/", async () => {
  const { dir, env } = project();
  const first = await rye(dir, env, "build");
  expect(first.code).toBe(0);
  expect(first.err).toMatch(/Generated a signing key in .* \(fingerprint [0-9a-f]{16}\)\./);
  const modules = allFiles(join(dir, "out")).filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith(".d.ts"));
  expect(modules.length).toBeGreaterThan(5);
  for (const f of modules) expect(readFileSync(f, "utf8")).toMatch(/^\/\/ rye:signed:1970-01-01T00:00:00Z:[0-9a-f]{64}:[A-Za-z0-9_-]{86}:[0-9a-f]{16}\n/);
  // A declaration is never evaluated: it carries no line, and the signed manifest binds it (see the test below).
  for (const f of allFiles(join(dir, "out")).filter((f) => f.endsWith(".d.ts"))) expect(readFileSync(f, "utf8")).not.toMatch(/^\/\/ rye:signed:/);
  const shard = JSON.parse(readFileSync(join(dir, "out", "manifest", "directives%2Fexamples.json"), "utf8"));
  expect(shard.items["greet.js"][0]).toBe("examples/greet");
  const privateKey = readFileSync(join(dir, "user", ".ai", "config", "keys", "signing", "private_key.pem"), "utf8");
  for (const f of allFiles(join(dir, "out"))) expect(readFileSync(f, "utf8")).not.toContain(privateKey.split("\n")[1]);
  const verified = await rye(dir, env, "verify", "out");
  expect(verified.err).not.toMatch(/FAIL|fail/);
  expect(verified.code).toBe(0);
  // Same sources and key: byte-identical output, and SOURCE_DATE_EPOCH sets the timestamp.
  expect((await rye(dir, env, "build", "--check")).code).toBe(0);
  // --check compares content, not signatures: another machine's key (or none) sees the output as
  // up to date, and checking never creates a key.
  const ci = { USER_SPACE: join(dir, "ci-user"), PATH: process.env.PATH };
  expect((await rye(dir, ci, "build", "--check")).code).toBe(0);
  expect(existsSync(join(dir, "ci-user"))).toBe(false);
  writeFileSync(join(dir, ".ai", "directives", "examples", "greet.md"), readFileSync(join(dir, ".ai", "directives", "examples", "greet.md"), "utf8").replace("Who to greet", "Whom to greet"));
  const stale = await rye(dir, ci, "build", "--check");
  expect(stale.code).toBe(1);
  expect(stale.err).toMatch(/stale +out\/directives\/examples\/greet\.js/);
  // The shard of that folder lists the item's source hash; the root binds the shards by hashes that change with the key.
  expect(stale.err).toMatch(/stale +out\/manifest\/directives%2Fexamples\.json/);
  expect((await rye(dir, { ...env, SOURCE_DATE_EPOCH: "1700000000" }, "build")).code).toBe(0);
  expect(readFileSync(join(dir, "out", "index.js"), "utf8")).toMatch(/^\/\/ rye:signed:2023-11-14T22:13:20Z:/);
});

test("a one-byte edit of a built module: its signature line no longer verifies, and rye verify fails", async () => {
  // A compiled module does not check itself on import (a tampered one would just drop the check):
  // trusted code checks it before it runs, as rye verify does here.
  const { dir, env } = project();
  expect((await rye(dir, env, "build")).code).toBe(0);
  const greet = join(dir, "out", "directives", "examples", "greet.js");
  const text = readFileSync(greet, "utf8");
  const publicPem = readFileSync(join(dir, "user", ".ai", "config", "keys", "signing", "public_key.pem"), "utf8");
  // The signer's fingerprint ends the signature line.
  const fingerprint = text.slice(0, text.indexOf("\n")).slice(-16);
  expect(() => verifyModuleSource(text, { [fingerprint]: publicPem }, "examples/greet")).not.toThrow();
  writeFileSync(greet, text.replace("Who to greet", "Who to greeT"));
  expect(() => verifyModuleSource(readFileSync(greet, "utf8"), { [fingerprint]: publicPem }, "examples/greet")).toThrow(/^Content modified since signing: examples\/greet/);
  expect((await rye(dir, env, "verify", "out")).code).toBe(1);
  writeFileSync(greet, text);
  expect((await rye(dir, env, "verify", "out")).code).toBe(0);
});

test("--allow-unsigned is loud, and its output does not verify", async () => {
  const { dir, env } = project();
  const built = await rye(dir, env, "build", "--allow-unsigned");
  expect(built.code).toBe(0);
  expect(built.err).toMatch(/--allow-unsigned: the output is NOT signed/);
  const text = readFileSync(join(dir, "out", "directives", "examples", "greet.js"), "utf8");
  expect(text).not.toContain("rye:signed:");
  expect(() => verifyModuleSource(text, {}, "examples/greet")).toThrow(/^Unsigned module: examples\/greet/);
  expect((await rye(dir, env, "verify", "out")).code).toBe(1);
});

test("rye verify out/ checks the signed manifest against every module it lists: a module swapped for another validly signed one fails", async () => {
  const { dir, env } = project();
  expect((await rye(dir, env, "build")).code).toBe(0);
  const out = join(dir, "out");
  const listed = await rye(dir, env, "verify", "out", "--verbose");
  expect(listed.out).toMatch(/verified +manifest +out\/manifest\.json/);
  expect(listed.out).toMatch(/verified +module +out\/index\.d\.ts/);
  writeFileSync(join(out, "directives", "examples", "greet.js"), readFileSync(join(out, "directives", "examples", "count_words.js")));
  const swapped = await rye(dir, env, "verify", "out");
  expect(swapped.code).toBe(1);
  expect(swapped.out).toMatch(/Files do not match the signed manifest .*\n +Differs from the manifest: directives\/examples\/greet\.js \(examples\/greet\)/);
  rmSync(join(out, "directives", "examples", "greet.js"));
  expect((await rye(dir, env, "verify", "out")).out).toMatch(/Missing: directives\/examples\/greet\.js \(examples\/greet\)/);
});

test("the manifest lists every signed module and every declaration of the build; rye verify checks them by hash and refuses unlisted ones", async () => {
  const { dir, env } = project();
  expect((await rye(dir, env, "build", "--emit-ts")).code).toBe(0);
  const out = join(dir, "out");
  // The root lists the top-level files and a shard per folder; the shards list the rest.
  const root = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { files: Record<string, string>; shards: Record<string, string> };
  const listed = new Map(Object.entries(root.files));
  const items = new Map<string, string>();
  for (const folder of Object.keys(root.shards)) {
    const shard = JSON.parse(readFileSync(join(out, "manifest", `${folder.split("/").join("%2F")}.json`), "utf8")) as { files: Record<string, string>; items: Record<string, [string, string]> };
    for (const [name, sha] of Object.entries(shard.files)) listed.set(`${folder}/${name}`, sha);
    for (const [name, [id]] of Object.entries(shard.items)) items.set(`${folder}/${name}`, id);
  }
  const rel = (f: string) => f.slice(out.length + 1).split("\\").join("/");
  const lined = allFiles(out).filter((f) => readFileSync(f, "utf8").startsWith("// rye:signed:"));
  // Declarations carry no signature line of their own: the manifest binds them.
  const declarations = allFiles(out).filter((f) => f.endsWith(".d.ts"));
  expect(declarations.length).toBeGreaterThan(5);
  expect(declarations.filter((f) => lined.includes(f))).toEqual([]);
  // And out/package.json, which decides how Node reads every module of the folder.
  const signed = [...lined, ...declarations].map(rel).concat("package.json").sort();
  expect([...listed.keys()].sort()).toEqual(signed);
  expect(items.get("directives/examples/greet.js")).toBe("examples/greet");
  expect(items.has("runtime/directive.js")).toBe(false);

  const ok = await rye(dir, env, "verify", "out", "--verbose");
  expect(ok.code).toBe(0);
  expect(ok.out).toMatch(/^verified +module +out\/directives\/examples\/greet\.d\.ts  sha256 matches \(listed in out\/manifest\.json\), signed by [0-9a-f]{16}/m);
  expect(ok.out).toMatch(/^verified +manifest +out\/manifest\.json  signed by [0-9a-f]{16}.*signature valid; \d+ of \d+ files verified$/m);
  const shards = Object.keys(root.shards).length;
  expect(ok.out.trim().split("\n").at(-1)).toBe(`${signed.length + shards + 1} of ${signed.length + shards + 1} files verified.`);
  // Without --verbose, the folder is one line and the count is the same.
  const summary = await rye(dir, env, "verify", "out");
  expect(summary.out.trim().split("\n")).toEqual([expect.stringMatching(/^verified +manifest +out\/manifest\.json /), `${signed.length + shards + 1} of ${signed.length + shards + 1} files verified.`]);

  // A file rye bundle adds is not build output: it is checked on its own signature.
  writeFileSync(join(out, "bundle.mjs"), readFileSync(join(out, "directives", "examples", "greet.js")));
  const bundled = await rye(dir, env, "verify", "out", "--verbose");
  expect(bundled.code).toBe(0);
  expect(bundled.out).toMatch(/^verified +module +out\/bundle\.mjs  signed by [0-9a-f]{16}.*signature valid$/m);

  // A validly signed module that is not part of the build is refused.
  writeFileSync(join(out, "directives", "examples", "extra.js"), readFileSync(join(out, "directives", "examples", "greet.js")));
  const extra = await rye(dir, env, "verify", "out");
  expect(extra.code).toBe(1);
  expect(extra.out).toMatch(/Not listed in the signed manifest out\/manifest\.json: out\/directives\/examples\/extra\.js/);
  rmSync(join(out, "directives", "examples", "extra.js"));

  // Declarations and TypeScript sources are vouched for too: a one-byte edit fails both the file and the manifest.
  const dts = join(out, "directives", "examples", "greet.d.ts");
  writeFileSync(dts, readFileSync(dts, "utf8").replace("render,", "render ,"));
  const edited = await rye(dir, env, "verify", "out", "--verbose");
  expect(edited.code).toBe(1);
  expect(edited.out).toMatch(/^modified +module +out\/directives\/examples\/greet\.d\.ts  sha256 differs/m);
  expect(edited.out).toMatch(/Differs from the manifest: directives\/examples\/greet\.d\.ts \(examples\/greet\)/);
  rmSync(join(out, "ts", "index.ts"));
  expect((await rye(dir, env, "verify", "out")).out).toMatch(/Missing: ts\/index\.ts/);
});
