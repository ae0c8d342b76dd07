// A remote build cache (Turborepo, Nx) may restore output built on another machine in another folder:
// that is sound only when the same sources and key give the same bytes wherever they are built.
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { outputTree } from "../helpers/output-bytes.js";
import { expect, test } from "vitest";
import { runRye } from "../helpers/cli.js";

const example = fileURLToPath(new URL("../../.ai", import.meta.url));

test("two checkouts in different folders, built with the same key, hold byte-identical output", async () => {
  const keys = mkdtempSync(join(tmpdir(), "rye-keys-"));
  const env = (user: string) => ({ USER_SPACE: user, RYE_SIGNING_KEY_DIR: keys });
  const a = join(mkdtempSync(join(tmpdir(), "rye-clone-a-")), "deeper", "project");
  const b = join(mkdtempSync(join(tmpdir(), "rye-clone-b-")), "p");
  for (const dir of [a, b]) cpSync(example, join(dir, ".ai"), { recursive: true });
  expect((await runRye(["build", "--project", a], a, env(mkdtempSync(join(tmpdir(), "rye-user-"))))).code).toBe(0);
  expect((await runRye(["build", "--project", b], b, env(mkdtempSync(join(tmpdir(), "rye-user-"))))).code).toBe(0);
  const [ta, tb] = [outputTree(join(a, "out")), outputTree(join(b, "out"))];
  expect([...ta.keys()].sort()).toEqual([...tb.keys()].sort());
  expect(ta.size).toBeGreaterThan(50);
  const differing = [...ta].filter(([path, bytes]) => !bytes.equals(tb.get(path)!)).map(([path]) => path);
  expect(differing).toEqual([]);
  // And the restored copy verifies where it lands, against the key that signed it.
  const restored = join(mkdtempSync(join(tmpdir(), "rye-restored-")), "project");
  cpSync(b, restored, { recursive: true });
  cpSync(join(a, "out"), join(restored, "out"), { recursive: true, force: true });
  const verified = await runRye(["verify", "out", "--trusted-key", join(keys, "public_key.pem")], restored, { USER_SPACE: mkdtempSync(join(tmpdir(), "rye-user-")) });
  expect(verified.stdout).toMatch(/of \d+ files verified\.\n$/);
  expect(verified.code).toBe(0);
});
