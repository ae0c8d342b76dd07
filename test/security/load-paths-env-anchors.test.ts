// Trust anchors named by the environment: the loader takes them from the environment it started
// with, and never one that lies where a checkout could carry it. A checkout's `.env` reaches
// process.env through the application (dotenv, process.loadEnvFile) after the loader registered,
// or through `node --env-file` before it; a key it names in the checkout must never vouch.
// Rows: how the anchor gets into the environment × how the application loads out/. Each row
// asserts the refusal and that the payload's marker does not exist; the control, the same key
// pinned outside the checkout before the process starts, runs the payload (the fixture is live).
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { loadSigningKey } from "../../src/sign/keys.js";
import { cleanEnv, inject, makeProject, markerRan, node, resignOutput, rye, tempDir } from "./helpers.js";
import { outsideOf } from "../helpers/outside.js";

const base = tempDir("rye-env-anchors-");
const project = join(base, "project");
const marker = join(base, "PWNED");
// Outside: a folder of its own. The folders above the project count as checkout (no repository marks where it ends).
const outsidePem = join(tempDir("rye-env-anchors-outside-"), "attacker.pem");
const siblingPem = join(base, "sibling", "attacker.pem");
const victimEnv = cleanEnv({ USER_SPACE: join(outsideOf(base), "victim-home") });

/** What the application does before it loads out/: `late` runs after the loader registered. */
interface Delivery {
  env?: Record<string, string>;
  nodeArgs?: string[];
  late?: Record<string, string>;
  dotenv?: string;
}

const DELIVERIES: Record<string, Delivery> = {
  "dotenv-style copy of .env (relative key path) after the loader started": { dotenv: "RYE_TRUSTED_KEYS=keys/attacker.pem" },
  "dotenv-style copy of .env (absolute key path in the checkout)": { dotenv: "RYE_TRUSTED_KEYS=@PROJECT@/keys/attacker.pem" },
  "process.loadEnvFile of .env (signing key folder in the checkout)": { dotenv: "RYE_SIGNING_KEY_DIR=@PROJECT@/keys", late: {} },
  "the application sets RYE_TRUSTED_KEYS to a key outside the checkout after the loader started": { late: { RYE_TRUSTED_KEYS: outsidePem } },
  "the application sets USER_SPACE to a space trusting the key after the loader started": { late: { USER_SPACE: join(base, "attacker-space") } },
  "node --env-file=.env (relative key path)": { dotenv: "RYE_TRUSTED_KEYS=keys/attacker.pem", nodeArgs: ["--env-file=.env"] },
  "node --env-file=.env (absolute key path in the checkout)": { dotenv: "RYE_TRUSTED_KEYS=@PROJECT@/keys/attacker.pem", nodeArgs: ["--env-file=.env"] },
  "the caller's environment names a key in the checkout": { env: { RYE_TRUSTED_KEYS: join("@PROJECT@", "keys", "attacker.pem") } },
  "the caller's environment names a signing key folder in the checkout": { env: { RYE_SIGNING_KEY_DIR: join("@PROJECT@", "keys") } },
  "the caller's environment names a key by a relative path": { env: { RYE_TRUSTED_KEYS: "keys/attacker.pem" } },
  "node --env-file=.env (a key in a folder beside the project, no repository)": { dotenv: `RYE_TRUSTED_KEYS=${siblingPem}`, nodeArgs: ["--env-file=.env"] },
  "the caller's environment names a key in a folder beside the project (no repository)": { env: { RYE_TRUSTED_KEYS: siblingPem } },
};

const LOADS: Record<string, { file: string; load: string }> = {
  "require()": { file: "app.cjs", load: `require("./out/index.js")` },
  "import()": { file: "app.mjs", load: `await import("./out/index.js")` },
};

const fill = (s: string) => s.replaceAll("@PROJECT@", project);

/** The application: its environment changes (as dotenv and loadEnvFile make them), then it loads out/. */
function app(d: Delivery, how: { file: string; load: string }): string {
  const late: string[] = [];
  if (d.dotenv !== undefined && !d.nodeArgs) late.push(how.file.endsWith(".cjs") ? `require("node:process").loadEnvFile(".env");` : `process.loadEnvFile(".env");`);
  for (const [k, v] of Object.entries(d.late ?? {})) late.push(`process.env[${JSON.stringify(k)}] = ${JSON.stringify(v)};`);
  const body = `${late.join("\n")}\nconst { directives } = ${how.load};\nconsole.log(JSON.stringify(directives["examples/greet"].render({ name: "Ada" })));\n`;
  return how.file.endsWith(".mjs") ? body : `(async () => {\n${body}})();\n`;
}

describe("anchors from the environment: taken once, when the loader starts, and never inside the checkout", () => {
  beforeAll(() => {
    makeProject(project);
    const attackerHome = join(base, "attacker-home");
    const built = rye(project, cleanEnv({ USER_SPACE: attackerHome }), "build");
    expect(built.status, built.stderr).toBe(0);
    const key = loadSigningKey(join(attackerHome, ".ai", "config", "keys", "signing"));
    inject(join(project, "out", "directives", "examples", "greet.js"), marker);
    resignOutput(join(project, "out"), key);
    mkdirSync(join(project, "keys"), { recursive: true });
    writeFileSync(join(project, "keys", "attacker.pem"), key.publicPem);
    writeFileSync(join(project, "keys", "public_key.pem"), key.publicPem);
    writeFileSync(outsidePem, key.publicPem);
    mkdirSync(join(base, "sibling"), { recursive: true });
    writeFileSync(siblingPem, key.publicPem);
    // A user space outside the checkout whose store trusts the key: only the startup environment may name it.
    cpSync(join(attackerHome, ".ai"), join(base, "attacker-space", ".ai"), { recursive: true });
    expect(rye(base, victimEnv, "keys", "generate").status).toBe(0);
  }, 120_000);

  function run(how: { file: string; load: string }, d: Delivery, env: NodeJS.ProcessEnv) {
    rmSync(marker, { force: true });
    writeFileSync(join(project, how.file), app(d, how));
    writeFileSync(join(project, ".env"), d.dotenv === undefined ? "" : `${fill(d.dotenv)}\n`);
    return node(project, env, ...(d.nodeArgs ?? []), "--import", "rye-build/register", how.file);
  }

  for (const [loadName, how] of Object.entries(LOADS)) {
    test(`control (${loadName}): the same key pinned outside the checkout when the process starts runs the payload`, () => {
      const r = run(how, {}, { ...victimEnv, RYE_TRUSTED_KEYS: outsidePem });
      expect(r.status, r.stderr).toBe(0);
      expect(markerRan(marker)).toBe(true);
    }, 60_000);

    for (const [name, d] of Object.entries(DELIVERIES)) {
      test(`${loadName}, ${name}: refused, no marker`, () => {
        const env = { ...victimEnv, ...Object.fromEntries(Object.entries(d.env ?? {}).map(([k, v]) => [k, fill(v)])) };
        const r = run(how, d, env);
        expect(r.status, r.stdout).not.toBe(0);
        expect(r.stderr).toMatch(/IntegrityError[^\n]*Untrusted key/);
        expect(markerRan(marker)).toBe(false);
      }, 60_000);
    }
  }
});
