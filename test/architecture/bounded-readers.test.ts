// Every file rye opens from a project, a user space or an output folder goes through one reader,
// src/project/read-regular.ts (regular files only, opened without blocking, checked on the open
// file, bounded per kind, links judged). This scans src/ for the calls that read a file and fails
// for any outside that module that is not on the short list below, each with its reason; it fails
// too when a listed call is gone, so the list only shrinks. Opening a file to write it is not a read.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const READER = "project/read-regular.ts";

/** `file callee` → why this read is not the reader's. */
const ALLOWED = new Map<string, string>([
  // The compiler's own files, not a project's: hashed for its identity, copied as the runtime.
  ["output/runtime-files.ts readFileSync", "the compiler's runtime, copied into out/runtime/"],
  ["sign/compiler-identity.ts readFileSync", "the compiler's code, hashed for its identity"],
  // Bounded reads of rye's own bookkeeping, already O_NOFOLLOW | O_NONBLOCK and a fixed small size.
  ["cache/bookkeeping-secret.ts openSync", "the user space's secret: O_NOFOLLOW | O_NONBLOCK, exactly 64 bytes read"],
  ["output/claim-output.ts openSync", "an output folder's claim record: O_NOFOLLOW | O_NONBLOCK, at most 1 KiB read"],
  ["verify/file-hashes.ts openSync", "the output hasher: O_NOFOLLOW | O_NONBLOCK, fstat, streamed into sha256 on worker threads that run its source text, so it imports nothing"],
  // A module the loader was asked to load from outside every output folder: Node reads it the same way.
  ["verify/output-guard.ts readFileSync", "an application's own module outside every output folder, which Node itself would read"],
  // The runtime may not import the compiler (folder rules): it has its own reader with the same rule.
  ["runtime/read-file.ts openSync", "the runtime's reader: O_NONBLOCK, fstat on the open file, regular files only, bounded"],
  // Not yet moved to the reader: each is a file named on the command line or an agents TOML.
  ["cli/commands/verify.ts readFileSync", "not yet moved: a source named by the walk, and a --provenance record"],
  ["cli/commands/bundle.ts readFileSync", "not yet moved: out/manifest.json and the bundle esbuild just wrote"],
  ["cli/commands/keys.ts readFileSync", "not yet moved: a public key file named on the command line"],
  ["cli/commands/keys-lifecycle.ts readFileSync", "not yet moved: a public key file named on the command line"],
  ["register/module-format.ts readFileSync", "not yet moved: a package.json the loader consults"],
]);

const READS = /(?<![\w$])(readFileSync|readFile|createReadStream|openSync|openAsBlob)\s*\(/g;
// An open whose flags create or write: not a read.
const WRITES = /["'`](?:w|wx|a|ax|w\+|a\+)["'`]|O_WRONLY|O_CREAT|O_RDWR|\bWRITE\b/;

function* tsFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "generated") yield* tsFiles(full);
    } else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) yield full;
  }
}

/** Every read call in `text` as `callee`, comments and writes left out. */
export function readCalls(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const code = line.replace(/\/\/.*$/, "");
    if (/^\s*\*/.test(code) || /^\s*import\b/.test(code)) continue;
    for (const m of code.matchAll(READS)) {
      if (m[1] === "openSync" && WRITES.test(code.slice(m.index))) continue;
      out.push(m[1]!);
    }
  }
  return out;
}

function callSites(): Set<string> {
  const sites = new Set<string>();
  for (const file of tsFiles(SRC)) {
    const rel = relative(SRC, file).split("\\").join("/");
    if (rel === READER) continue;
    for (const callee of readCalls(readFileSync(file, "utf8"))) sites.add(`${rel} ${callee}`);
  }
  return sites;
}

describe("the scan", () => {
  test("finds reads, and leaves out writes, comments and imports", () => {
    expect(readCalls('const t = readFileSync(p, "utf8");\nconst s = fs.createReadStream(p);\nawait readFile(p);')).toEqual(["readFileSync", "createReadStream", "readFile"]);
    expect(readCalls('const fd = openSync(p, constants.O_RDONLY);\nconst w = openSync(p, "wx", 0o600);\nopenSync(p, constants.O_WRONLY | constants.O_CREAT);')).toEqual(["openSync"]);
    expect(readCalls('import { readFileSync } from "node:fs";\n// readFileSync(p)\n * readFileSync(p) in a doc comment')).toEqual([]);
    expect(readCalls("const x = myReadFileSync(p);")).toEqual([]);
  });
});

describe("src/", () => {
  const sites = callSites();

  test("reads files only through the reader, apart from the listed reasons", () => {
    expect([...sites].filter((s) => !ALLOWED.has(s)).sort()).toEqual([]);
  });

  test("every listed reason still has its read (a moved one leaves the list)", () => {
    expect([...ALLOWED.keys()].filter((s) => !sites.has(s))).toEqual([]);
  });
});
