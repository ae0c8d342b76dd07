// Security class 2 (decisions #23): what a checkout carries is input, never authority. A pull request
// can add anything to a repository that commits out/: a journal of any operation, staging files,
// stamps and cache records claiming anything, symlinks, hard links and FIFOs in out/, out/.rye and
// .rye-cache, an output folder that leads out of the project. Each case below plants one such tree
// into a project its victim built cleanly, then runs the real CLI (dist/) with HOME and USER_SPACE
// set to a fake home holding a sentinel file and a trust store, and checks: every file outside the
// project is byte-identical, no payload marker exists, a refusal is a non-zero exit with a located
// message, and a build that goes through leaves the module built from the sources, which verifies.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, test } from "vitest";
import { Bookkeeping, type RecordKind } from "../../src/cache/bookkeeping-seal.js";
import { secretFile } from "../../src/cache/bookkeeping-secret.js";
import { age } from "../helpers/age-tree.js";

const BIN = fileURLToPath(new URL("../../bin/rye.js", import.meta.url));
const DIRECTIVE = '# T\n\n```xml\n<directive name="t" version="1.0.0">\n  <metadata><description>T</description></metadata>\n</directive>\n```\n\nHello.\n';
const MODULE = "directives/t.js";

/** The victim's machine: one home for every case (its key and secret are made by the first build). */
let home: string;
const env = () => ({ PATH: process.env.PATH ?? "", HOME: home, USER_SPACE: home, NO_COLOR: "1" });

interface Ctx {
  /** The folder around the project (a sentinel and an empty folder beside it: outside the project). */
  around: string;
  project: string;
  out: string;
  /** out/directives/t.js as the victim's clean build wrote it. */
  clean: string;
  /** Where a payload would leave its mark (none may exist afterwards). */
  markers: string[];
}

interface Plant {
  name: string;
  /** Plants the tree; returns what the build must do with it. */
  plant(c: Ctx): "refused" | "ignored";
  /** A located refusal's message, when refused. */
  why?: RegExp;
  /** The build goes through but out/ keeps a file that is not build output, so `rye verify` fails. */
  keepsForeign?: boolean;
  /** More to check once the commands ran. */
  check?(c: Ctx): void;
}

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env: env(), encoding: "utf8", timeout: 45_000 });
  return { code: r.status, err: r.stderr, out: r.stdout, timedOut: r.error !== undefined };
}

/** Every entry under `dir` (not followed), with what it holds: bytes' hash, a link's target, its kind. */
function snapshot(dir: string, skip?: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (path === skip) continue;
      const st = lstatSync(path);
      const key = rel + name;
      if (st.isSymbolicLink()) out[key] = `link ${readlinkSync(path)}`;
      else if (st.isDirectory()) (out[key] = "dir"), walk(path, `${key}/`);
      else if (st.isFile()) out[key] = `file ${st.mode.toString(8)} ${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
      else out[key] = "special";
    }
  };
  walk(dir, "");
  return out;
}

const outside = (c: Ctx) => ({ home: snapshot(home), around: snapshot(c.around, c.project) });

/** Seals `text` as rye would, with the victim's own secret: what a record from another project looks like. */
function sealWithVictimSecret(kind: RecordKind, scope: string, text: string): string {
  return new Bookkeeping(Buffer.from(readFileSync(secretFile(home), "utf8"), "hex")).seal(kind, scope, text);
}

const payloadModule = (c: Ctx, marker: string) => `${c.clean.split("\n")[0]}\nimport * as f from "node:fs"; f.writeFileSync(${JSON.stringify(marker)}, "payload ran");\n`;
const attackerPem = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAattackerattackerattackerattackerattackerAAA=\n-----END PUBLIC KEY-----\n";
const trusted = () => join(home, ".ai", "config", "keys", "trusted");
const workDir = (c: Ctx) => join(c.out, ".rye");

/** A journal that, replayed, writes the attacker's key into the trust store and deletes the home's sentinel through links in out/. */
function journalAttack(c: Ctx, seal: (text: string) => string, marker: string): void {
  symlinkSync(trusted(), join(c.out, "keys"));
  symlinkSync(home, join(c.out, "homelink"));
  mkdirSync(join(workDir(c), "staging", "keys"), { recursive: true });
  mkdirSync(join(workDir(c), "staging", "directives"), { recursive: true });
  writeFileSync(join(workDir(c), "staging", "keys", "attacker.pem"), attackerPem);
  writeFileSync(join(workDir(c), "staging", MODULE), payloadModule(c, marker));
  mkdirSync(join(workDir(c), "staging", "fresh"), { recursive: true });
  writeFileSync(join(workDir(c), "staging", "fresh", "x.js"), "x");
  const journal = { write: ["keys/attacker.pem", MODULE, "fresh/x.js", "homelink/planted.txt"], remove: ["homelink/sentinel.txt", "keys/colleague.pem", "../victim.txt"], folders: ["fresh"] };
  writeFileSync(join(workDir(c), "journal.json"), seal(JSON.stringify(journal)));
}

/** The victim's cache with the module's record rewritten to vouch for a tampered module now in out/. */
function poisonCache(c: Ctx, marker: string): string {
  writeFileSync(join(c.out, MODULE), payloadModule(c, marker));
  const st = statSync(join(c.out, MODULE));
  const sealed = readFileSync(join(c.project, ".rye-cache", "build.json"), "utf8");
  const cache = JSON.parse(sealed.slice(sealed.indexOf("\n") + 1));
  const hash = createHash("sha256").update(readFileSync(join(c.out, MODULE))).digest("hex");
  let poisoned = 0;
  for (const rec of Object.values(cache.items) as { files: [string, string, number, number][] }[]) {
    for (const f of rec.files) if (f[0] === MODULE) (f[1] = hash), (f[2] = st.size), (f[3] = st.mtimeMs), poisoned++;
  }
  expect(poisoned).toBe(1);
  return JSON.stringify(cache);
}

const located = /:\d+:\d+ - error RYE\d{4}/;

const PLANTS: Plant[] = [
  // Journals of every operation kind, with links that lead out of out/.
  ...(["unsealed", "forged MAC", "sealed for another project"] as const).map((how): Plant => ({
    name: `a journal (${how}) writing, moving and deleting through links into the home`,
    plant(c) {
      const seal = (t: string) =>
        how === "unsealed" ? t : how === "forged MAC" ? `rye-mac:1:${"ab".repeat(32)}\n${t}` : sealWithVictimSecret("journal", join(dirname(c.around), "other", "project", "out"), t);
      journalAttack(c, seal, c.markers[0]!);
      return "refused"; // the links it needs are in out/: the claim refuses them, after the journal was dropped
    },
    why: /out holds files no build recorded as its own .*(keys|homelink) \(symlink\)/,
  })),
  {
    name: "a journal sealed for this very folder still moves and deletes nothing through a link",
    plant(c) {
      journalAttack(c, (t) => sealWithVictimSecret("journal", c.out, t), c.markers[0]!);
      return "refused";
    },
    why: /\(symlink\)/,
  },
  ...(["remove", "write"] as const).map((op): Plant => ({
    name: `an unsealed journal that would ${op} the module in out/ (no link): ignored, the build writes the module from sources`,
    plant(c) {
      mkdirSync(join(workDir(c), "staging", "directives"), { recursive: true });
      writeFileSync(join(workDir(c), "staging", MODULE), payloadModule(c, c.markers[0]!));
      writeFileSync(join(workDir(c), "journal.json"), JSON.stringify(op === "remove" ? { write: [], remove: [MODULE, "rye-files.json"] } : { write: [MODULE], remove: [] }));
      return "ignored";
    },
  })),
  {
    name: "an unsealed journal deleting a file of the user's in out/ before the build looks at out/",
    plant(c) {
      writeFileSync(join(c.out, "notes.md"), "the user's notes");
      writeFileSync(join(workDir(c), "journal.json"), JSON.stringify({ write: [], remove: ["notes.md"] }));
      return "refused"; // the notes are no build's: named, never deleted
    },
    why: /out\/notes\.md:1:1 - error RYE8005: .*holds files no build recorded as its own .*notes\.md/,
    check(c) {
      expect(readFileSync(join(c.out, "notes.md"), "utf8")).toBe("the user's notes");
    },
  },
  {
    name: "staging files and a journal temp file without a journal",
    plant(c) {
      mkdirSync(join(workDir(c), "staging", "directives"), { recursive: true });
      writeFileSync(join(workDir(c), "staging", MODULE), payloadModule(c, c.markers[0]!));
      writeFileSync(join(workDir(c), "journal.json.tmp"), JSON.stringify({ write: [MODULE], remove: [] }));
      return "ignored";
    },
  },
  // Links and special files in out/.rye, where the writer keeps its own files.
  {
    name: "out/.rye is a symlink to a folder in the home",
    plant(c) {
      mkdirSync(join(home, "work"), { recursive: true });
      writeFileSync(join(home, "work", "keep.txt"), "keep");
      mkdirSync(join(home, "work", "staging"), { recursive: true });
      writeFileSync(join(home, "work", "staging", "keep.txt"), "keep");
      rmSync(workDir(c), { recursive: true, force: true });
      symlinkSync(join(home, "work"), workDir(c));
      return "refused";
    },
    why: /\.rye:1:1 - error RYE8005: .*is a symlink; it is rye build's own work folder/,
  },
  ...([".gitignore", "journal.json.tmp", "lock", "staging", "journal.json"] as const).map((name): Plant => ({
    name: `out/.rye/${name} is a symlink to the home's sentinel (or a folder of the home)`,
    plant(c) {
      rmSync(join(workDir(c), name), { recursive: true, force: true });
      if (name === "staging") {
        mkdirSync(join(home, "stage"), { recursive: true });
        writeFileSync(join(home, "stage", "keep.txt"), "keep");
        symlinkSync(join(home, "stage"), join(workDir(c), name));
      } else symlinkSync(join(home, "sentinel.txt"), join(workDir(c), name));
      return "ignored";
    },
  })),
  ...([".gitignore", "journal.json", "lock"] as const).map((name): Plant => ({
    name: `out/.rye/${name} is a FIFO (a read would block) or a hard link to the home's sentinel`,
    plant(c) {
      rmSync(join(workDir(c), name), { force: true });
      if (name === "lock") linkSync(join(home, "sentinel.txt"), join(workDir(c), name));
      else spawnSync("mkfifo", [join(workDir(c), name)]);
      if (name === ".gitignore") linkSync(join(home, "sentinel.txt"), join(workDir(c), "journal.json.tmp"));
      return "ignored";
    },
  })),
  {
    name: "an unsealed lock naming a live build on another host (would be waited for, then refused)",
    plant(c) {
      writeFileSync(join(workDir(c), "lock"), "1@another-host.example");
      return "ignored";
    },
  },
  // A poisoned cache: "this module's hash is X" for a module tampered with in out/.
  ...(["unsealed", "sealed line of the real cache kept", "sealed for another project"] as const).map((how): Plant => ({
    name: `a poisoned .rye-cache/build.json (${how}) never gets a tampered module re-signed`,
    plant(c) {
      const sealed = readFileSync(join(c.project, ".rye-cache", "build.json"), "utf8");
      const poisoned = poisonCache(c, c.markers[0]!);
      const text =
        how === "unsealed" ? poisoned : how === "sealed for another project" ? sealWithVictimSecret("build-cache", join(dirname(c.around), "other", "project"), poisoned) : `${sealed.slice(0, sealed.indexOf("\n") + 1)}${poisoned}`;
      writeFileSync(join(c.project, ".rye-cache", "build.json"), text);
      // Any up-to-date stamp goes too: the cache is what is tested here.
      rmSync(join(c.project, ".rye-cache", "up-to-date.json"), { force: true });
      return "ignored";
    },
  })),
  {
    name: "a tampered module hard-linked to a file in the home",
    plant(c) {
      writeFileSync(join(home, "linked.js"), payloadModule(c, c.markers[0]!));
      rmSync(join(c.out, MODULE));
      linkSync(join(home, "linked.js"), join(c.out, MODULE));
      rmSync(join(c.project, ".rye-cache"), { recursive: true, force: true });
      return "ignored";
    },
  },
  {
    name: ".rye-cache is a symlink to a folder in the home, its records hard links and links to the sentinel",
    plant(c) {
      mkdirSync(join(home, "cache"), { recursive: true });
      rmSync(join(c.project, ".rye-cache"), { recursive: true, force: true });
      symlinkSync(join(home, "cache"), join(c.project, ".rye-cache"));
      linkSync(join(home, "sentinel.txt"), join(home, "cache", "build.json"));
      symlinkSync(join(home, "sentinel.txt"), join(home, "cache", "up-to-date.json"));
      writeFileSync(join(c.out, MODULE), payloadModule(c, c.markers[0]!));
      return "ignored";
    },
  },
  {
    name: ".rye-cache is a symlink to a folder beside the project",
    plant(c) {
      rmSync(join(c.project, ".rye-cache"), { recursive: true, force: true });
      symlinkSync(join(c.around, "elsewhere"), join(c.project, ".rye-cache"));
      writeFileSync(join(c.out, MODULE), payloadModule(c, c.markers[0]!));
      return "ignored";
    },
  },
  {
    name: ".rye-cache records are a hard link, a symlink and a FIFO",
    plant(c) {
      const cache = join(c.project, ".rye-cache");
      rmSync(join(cache, "build.json"));
      linkSync(join(home, "sentinel.txt"), join(cache, "build.json"));
      rmSync(join(cache, "up-to-date.json"), { force: true });
      spawnSync("mkfifo", [join(cache, "up-to-date.json")]);
      symlinkSync(join(home, "sentinel.txt"), join(cache, `build.json.${process.pid}.tmp`));
      writeFileSync(join(c.out, MODULE), payloadModule(c, c.markers[0]!));
      return "ignored";
    },
  },
  // The output record: committed with out/, so a pull request can make it list anything.
  {
    name: "a record (unsealed, as a clone has it) listing a file of the user's in out/ that no build produces",
    plant(c) {
      writeFileSync(join(c.out, "notes.md"), "the user's notes");
      const record = JSON.parse(readFileSync(join(c.out, "rye-files.json"), "utf8"));
      record.folders[""].push("notes.md");
      writeFileSync(join(c.out, "rye-files.json"), JSON.stringify(record));
      return "ignored";
    },
    keepsForeign: true,
    check(c) {
      expect(readFileSync(join(c.out, "notes.md"), "utf8")).toBe("the user's notes");
    },
  },
  // Links and special files in out/ itself.
  {
    name: "out/directives is a symlink to the home",
    plant(c) {
      rmSync(join(c.out, "directives"), { recursive: true });
      symlinkSync(home, join(c.out, "directives"));
      return "refused";
    },
    why: /directives \(symlink\)/,
  },
  {
    name: "out/directives/t.js is a FIFO",
    plant(c) {
      rmSync(join(c.out, MODULE));
      spawnSync("mkfifo", [join(c.out, MODULE)]);
      return "refused";
    },
    why: /directives\/t\.js \(special\)/,
  },
  {
    name: "out/rye-files.json is a FIFO",
    plant(c) {
      rmSync(join(c.out, "rye-files.json"));
      spawnSync("mkfifo", [join(c.out, "rye-files.json")]);
      return "refused";
    },
    why: /out holds files no build wrote/,
  },
  // Output folders from the config file that lead out of the project.
  ...([
    ["..", /holds the project itself/],
    ["ABS", /lies outside the project/],
    ["link", /lies outside the project .*once links are resolved/],
    ["sub/out", /lies outside the project .*once links are resolved/],
  ] as const).map(([out, why]): Plant => ({
    name: `rye.config.json's out: ${out === "ABS" ? "an absolute folder beside the project" : out === "link" ? "a symlink leading out" : out === "sub/out" ? "a folder under a symlink leading out" : out}`,
    plant(c) {
      symlinkSync(join(c.around, "elsewhere"), join(c.project, "link"));
      symlinkSync(join(c.around, "elsewhere"), join(c.project, "sub"));
      writeFileSync(join(c.project, "rye.config.json"), JSON.stringify({ out: out === "ABS" ? join(c.around, "elsewhere") : out }));
      return "refused";
    },
    why,
  })),
  ...(["inside the project", "outside, without a key"] as const).map((where): Plant => ({
    name: `rye.config.json's signingKeyDir ${where}`,
    plant(c) {
      writeFileSync(join(c.project, "rye.config.json"), JSON.stringify({ signingKeyDir: where === "inside the project" ? "keys" : join(c.around, "elsewhere", "keys") }));
      return "refused";
    },
    why: /rye\.config\.json:1:\d+ - error RYE9002: Invalid configuration: 'signingKeyDir'/,
  })),
];

function victim(): Ctx {
  const around = mkdtempSync(join(tmpdir(), "rye-hostile-"));
  const project = join(around, "project");
  mkdirSync(join(project, ".ai", "directives"), { recursive: true });
  writeFileSync(join(project, ".ai", "directives", "t.md"), DIRECTIVE);
  writeFileSync(join(around, "victim.txt"), "the victim's file beside the project");
  mkdirSync(join(around, "elsewhere"));
  const r = cli(project, "build");
  expect(r.code, r.err).toBe(0);
  const out = join(project, "out");
  const markers = [join(around, "pwned"), join(home, "pwned")];
  return { around, project, out, clean: readFileSync(join(out, MODULE), "utf8"), markers };
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "rye-hostile-home-"));
  writeFileSync(join(home, "sentinel.txt"), "the victim's sentinel");
  mkdirSync(trusted(), { recursive: true });
  writeFileSync(join(trusted(), "colleague.pem"), "a colleague's key\n");
});

describe("a hostile checkout is input, never authority (rye build, --check, verify, preview)", () => {
  for (const p of PLANTS) {
    test(p.name, () => {
      const c = victim();
      const expected = p.plant(c);
      const before = outside(c);
      const build = cli(c.project, "build");
      expect(build.timedOut, "rye build hung").toBe(false);
      if (expected === "refused") {
        expect(build.code, build.err).not.toBe(0);
        expect(build.err).toMatch(located);
        if (p.why) expect(build.err).toMatch(p.why);
      } else {
        expect(build.code, build.err).toBe(0);
        // The module is the one built from the sources, and the output verifies.
        expect(readFileSync(join(c.out, MODULE), "utf8")).toBe(c.clean);
        expect(lstatSync(join(c.out, MODULE)).nlink).toBe(1);
        const verify = cli(c.project, "verify", "out");
        if (p.keepsForeign) expect(verify.out + verify.err).toMatch(/notes\.md/);
        else expect(verify.code, verify.err + verify.out).toBe(0);
      }
      for (const args of [["build", "--check"], ["verify", "out"], ["preview", "t"]]) {
        const r = cli(c.project, ...args);
        expect(r.timedOut, `rye ${args.join(" ")} hung`).toBe(false);
        expect(r.code, `rye ${args.join(" ")}`).not.toBeNull();
      }
      expect(outside(c)).toEqual(before);
      for (const m of c.markers) expect(lstatSync(m, { throwIfNoEntry: false }), m).toBeUndefined();
      expect(readdirSync(trusted())).toEqual(["colleague.pem"]);
      p.check?.(c);
    }, 240_000);
  }
});


describe("an up-to-date stamp a checkout carries is no stamp", () => {
  const FORGED = "forged-report-marker";
  for (const how of ["sealed for this project (the control: the stamp answers)", "unsealed", "its real MAC line kept", "sealed for another project"] as const) {
    test(`a stamp whose report was rewritten, ${how}`, () => {
      const c = victim();
      // Everything the build reads older than the racy window, the user space (its secret and key) too.
      age(c.project);
      age(home);
      expect(cli(c.project, "build").code).toBe(0); // records the stamp: nothing moved for a while
      const file = join(c.project, ".rye-cache", "up-to-date.json");
      const sealed = readFileSync(file, "utf8");
      const stamp = JSON.parse(sealed.slice(sealed.indexOf("\n") + 1));
      stamp.diagnostics.push({ code: "RYE2002", severity: "warning", message: FORGED });
      const text = JSON.stringify(stamp);
      const scope = how === "sealed for another project" ? join(dirname(c.around), "other", "project") : c.project;
      writeFileSync(file, how === "unsealed" ? text : how === "its real MAC line kept" ? `${sealed.slice(0, sealed.indexOf("\n") + 1)}${text}` : sealWithVictimSecret("up-to-date", scope, text));
      const r = cli(c.project, "build");
      expect(r.code, r.err).toBe(0);
      if (how.startsWith("sealed for this project")) expect(r.out + r.err).toContain(FORGED);
      else expect(r.out + r.err).not.toContain(FORGED);
    }, 120_000);
  }
});
