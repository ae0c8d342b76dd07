import { existsSync, readFileSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import {
  kindFromPath,
  sniffMarkdownKind,
  userSpace,
  verifyItem,
  type FileKind,
  type ItemVerification,
  type TrustStore,
} from "../../sign/index.js";
import { TRUST_HOW } from "../../sign/verify-item.js";
import { parseCommandLine } from "../args.js";
import type { Io } from "../io.js";
import { trustForSpaces } from "../../builder/signing.js";
import { verify, type VerifyResult } from "../../verify/verify.js";
import type { FileCheck } from "../../verify/verify-output.js";
import { findTargets } from "../../verify/find-targets.js";
import { parseNotBefore } from "../../verify/freshness.js";
import { parseProvenanceRecord, provenanceProblems } from "../../verify/check-provenance.js";

const USAGE = `Usage: rye verify [paths…] [--trusted-key FILE]… [--current [--emit-ts]] [--not-before TIME|COUNTER] [--require-signed-sources] [--project DIR] [--user-space DIR] [--system DIR]… [--kind KIND] [--verbose] [--json]
       rye verify [OUTPUT|BUNDLE] --provenance FILE [--trusted-key FILE]…

Checks build output, bundles and Rye items: signed, hash matching, key trusted, Ed25519 signature
valid. Directories are walked (default: the project directory).

A build output folder (one holding a rye manifest.json) is checked against its signed manifest,
every file by path, item and sha256, and reported in one line (plus a line per file that fails;
--verbose lists every file, --json reports every file); a bundle against its own signature line and its detached .sig.
Both trust only keys from outside the checkout: --trusted-key FILE (repeatable; .pem or trusted-key
.toml files, or folders of them), RYE_TRUSTED_KEYS, this machine's signing key and the user space's
trust store. Keys in the project's .ai/, in out/ or in a bundle never vouch for them. A revoked key,
or one expired (or superseded by rye keys rotate) at the time of the check, is refused.

A signature says who built the output, not when: an older complete output restored over a newer one
verifies. --current also requires output built from the sources the project holds now (the signed
source list is recomputed from --project, default the output folder's parent, and the spaces above;
what changed is named), by the compiler installed here, with the output options a build records (the
output folder's place in the project, and --emit-ts when the build had it). --not-before TIME|COUNTER refuses output built before an ISO time (its signed
build time: SOURCE_DATE_EPOCH or the sources' newest signature) or with a lower build counter
(RYE_BUILD_COUNTER at build time).

Sources (directives, knowledge, tools, config under .ai/) are checked against the trust stores
.ai/config/keys/trusted/ and .ai/trusted_keys/ of the project, the user space ($USER_SPACE or home)
and each --system root, in that order, plus the keys above; each line names the store that vouched.
--kind overrides the kind inferred from each path (directive, knowledge, tool, config, module,
manifest). An unsigned source is reported as unsigned and accepted (a new project's sources are
unsigned until rye sign signs them); --require-signed-sources refuses it. Exit code 1 when any file fails.

--provenance FILE checks a provenance record an application logged (JSON: item, kind, source_sha256,
compiler, signer, build_id; or rye run's output holding one) against one output folder (default: out)
or bundle: the target is verified first, then every field of the record must match what it signed.`;

const KINDS = ["directive", "knowledge", "tool", "config", "module", "manifest"];

function verifySource(path: string, display: string, trust: TrustStore, forced: FileKind | undefined): { kind: string; r: ItemVerification } {
  const text = readFileSync(path, "utf8");
  let kind = forced ?? kindFromPath(path);
  if (kind === null && path.endsWith(".md")) kind = sniffMarkdownKind(text);
  if (kind === null || kind === "module" || kind === "manifest") {
    const message = `Cannot tell what kind of item ${display} is; pass --kind ${KINDS.join("|")}`;
    const r: ItemVerification = {
      ok: false, outcome: "error", itemId: display, signed: false, hashMatches: null, trusted: null, signatureValid: null,
      signature: null, expectedHash: null, actualHash: null, owner: null, result: null, message,
    };
    return { kind: "unknown", r };
  }
  const r = verifyItem(text, kind, trust, { path });
  return { kind, r: { ...r, message: r.message.split(path).join(display) } };
}

const STATUS: Record<ItemVerification["outcome"], string> = {
  verified: "verified",
  unsigned: "unsigned",
  hash_mismatch: "modified",
  untrusted: "untrusted",
  bad_signature: "bad-signature",
  error: "error",
};

/** One line of the report. */
interface Line {
  path: string;
  kind: string;
  status: string;
  ok: boolean;
  details: string;
  message: string;
  fingerprint: string | null;
  owner: string | null;
  vouchedBy?: string;
  /** Extra fields of the JSON report (a source's individual checks). */
  json?: Record<string, unknown>;
  /** Verified files this line stands for without a line of their own (an output folder's, without --verbose or --json). */
  more?: number;
  /** An unsigned source that passes (no --require-signed-sources): neither verified nor failed. */
  unsigned?: boolean;
}

function signedBy(fp: string | undefined | null, owner: string | null, source?: string): string {
  return `signed by ${fp ?? "?"}${owner && owner !== source ? ` (${owner})` : ""}${source ? ` [trusted via ${source}]` : ""}`;
}

function itemDetails(r: ItemVerification, store?: string): string {
  if (!r.signed) return "not signed";
  const hash = r.hashMatches ? "hash matches" : "hash differs";
  const key = r.trusted ? (store ? `key trusted by the ${store} store` : "key trusted") : "key not trusted";
  const sig = r.signatureValid === null ? "signature not checked" : r.signatureValid ? "signature valid" : "signature INVALID";
  return [signedBy(r.signature?.fingerprint, r.owner), hash, key, sig].join(", ");
}

/**
 * A source's line. An unsigned source is reported as unsigned, and fails only with
 * --require-signed-sources: a new project's sources are unsigned until someone runs rye sign.
 */
function sourceLine(display: string, kind: string, r: ItemVerification, trust: TrustStore, requireSigned: boolean): Line {
  const store = r.trusted && r.signature ? trust.get(r.signature.fingerprint)?.source : undefined;
  const json = { outcome: r.outcome, signed: r.signed, hashMatches: r.hashMatches, trusted: r.trusted, signatureValid: r.signatureValid, trustedBy: store ?? null };
  const accepted = r.outcome === "unsigned" && !requireSigned;
  // The item's message keeps the original's words ("your trust store"); this names the real ways.
  const message = accepted ? "" : r.outcome === "untrusted" && r.trusted === false ? `${r.message}\n  ${TRUST_HOW}` : r.message;
  const line: Line = { path: display, kind, status: STATUS[r.outcome], ok: r.ok || accepted, details: itemDetails(r, store), message, fingerprint: r.signature?.fingerprint ?? null, owner: r.owner, json };
  return accepted ? Object.assign(line, { unsigned: true }) : line;
}

const FILE_STATUS: Record<FileCheck["status"], string> = { verified: "verified", modified: "modified", missing: "missing", unlisted: "unlisted", "not-a-file": "error" };

/** The signed build metadata for the JSON report (the source list itself is left in out/manifest/sources.txt). */
function stampOf(result: VerifyResult): { time: string; counter: number; sources: string } | null {
  return result.build && { time: result.build.time, counter: result.build.counter, sources: result.build.sources };
}

/**
 * The lines for one output folder: the manifest, then every file it lists or that should not be
 * there; with `all` false, verified files are only counted (a 10k-item build is ~20k files).
 */
function outputLines(result: VerifyResult, shown: (p: string) => string, dirShown: string, all: boolean): Line[] {
  const manifestPath = `${dirShown}/manifest.json`;
  const m = result.output!.manifest;
  const fp = m.signature?.fingerprint ?? null;
  const via = result.signer?.source;
  const files = result.output!.files;
  const verified = files.filter((f) => f.status === "verified").length;
  const count = m.ok ? `; ${verified} of ${files.length} files verified` : "";
  // The manifest's row is the manifest file's own check: a file that fails is counted on its own row, once.
  const ok = m.ok && (result.ok || verified < files.length);
  // Every file verified, and still refused: the freshness checks (--current, --not-before) did it.
  const stale = m.ok && !result.ok && verified === files.length;
  const lines: Line[] = [{
    path: manifestPath, kind: "manifest", status: ok ? "verified" : stale ? "stale" : m.ok ? "modified" : STATUS[m.outcome], ok,
    details: `${m.ok ? `${signedBy(fp, m.owner, via)}, hash matches, key trusted, signature valid` : itemDetails(m)}${count}`,
    message: result.problems.join("\n"), fingerprint: fp, owner: m.owner, more: all ? 0 : verified, json: { build: stampOf(result) },
  }];
  for (const f of files) {
    if (!all && f.status === "verified") continue;
    const display = shown(resolve(result.path, f.path));
    const details = f.status === "verified" || f.status === "modified"
      ? `sha256 ${f.status === "verified" ? "matches" : "differs"} (listed in ${manifestPath}), ${signedBy(fp, m.owner, via)}`
      : f.status === "missing" ? `listed in ${manifestPath} but absent` : f.status === "unlisted" ? `not listed in ${manifestPath}` : f.link === false ? "not a regular file" : "a symbolic link";
    const message = f.status === "verified" ? ""
      : f.status === "unlisted" ? `Not listed in the signed manifest ${manifestPath}: ${display} is not part of that build\n  Fix: rebuild with rye build, or remove the file`
      : f.status === "modified" ? `Content modified since signing: ${display}${f.itemId ? ` (${f.itemId})` : ""}\n  Differs from the signed manifest ${manifestPath}: expected sha256 ${f.expected}, actual ${f.actual ?? "(unreadable)"}\n  Fix: rebuild with rye build`
      : "";
    const kind = f.shardOf === undefined ? "module" : "shard";
    lines.push({ path: display, kind, status: FILE_STATUS[f.status], ok: f.status === "verified", details, message, fingerprint: fp, owner: m.owner, vouchedBy: manifestPath });
  }
  return lines;
}

function bundleLine(result: VerifyResult, display: string): Line {
  const b = result.bundle!;
  const r = b.inline;
  const via = result.signer?.source;
  const details = r.ok
    ? `${signedBy(r.signature?.fingerprint, r.owner, via)}, hash matches, key trusted, signature valid${b.detached === null ? "" : b.detached ? ", detached .sig valid" : ", detached .sig INVALID"}`
    : itemDetails(r);
  return { path: display, kind: "module", status: b.ok ? "verified" : r.ok && b.detached !== false && result.build ? "stale" : r.ok ? "bad-signature" : STATUS[r.outcome], ok: b.ok, details, message: b.problems.join("\n"), fingerprint: r.signature?.fingerprint ?? null, owner: r.owner, json: { build: stampOf(result) } };
}

/**
 * Prints the report: one line per source, bundle and output folder, and per file of an output
 * folder that failed (each with its message, indented; --verbose: every file), then a count of
 * every file checked; or all of it as JSON.
 */
function printReport(lines: Line[], failed: number, asJson: boolean, io: Io): void {
  if (asJson) {
    const report = lines.map(({ path, kind, status, ok, fingerprint, owner, message, vouchedBy, json }) => ({ path, kind, status, ok, fingerprint, owner, message, ...(vouchedBy ? { vouchedBy } : {}), ...json }));
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const text: string[] = [];
    for (const l of lines) {
      text.push(`${l.status.padEnd(13)} ${l.kind.padEnd(9)} ${l.path}  ${l.details}\n`);
      if (l.message) text.push(`${l.message.replace(/^/gm, "    ")}\n`);
    }
    io.stdout.write(text.join(""));
    const more = lines.reduce((n, l) => n + (l.more ?? 0), 0);
    const unsigned = lines.filter((l) => l.unsigned).length;
    const verified = lines.filter((l) => l.ok && !l.unsigned).length + more;
    const accepted = unsigned ? `, ${unsigned} unsigned source${unsigned === 1 ? "" : "s"} accepted (rye sign signs them; --require-signed-sources refuses them)` : "";
    io.stdout.write(`${verified} of ${lines.length + more} files verified${accepted}${failed ? `, ${failed} failed` : ""}.\n`);
  }
}

/** What the command line asks for, once checked. */
interface VerifyRequest {
  positionals: string[];
  forced: FileKind | undefined;
  fresh: { notBefore?: string; current?: { project: string | undefined; userSpace: string | undefined; systems: string[] | undefined; emitTs: boolean } };
  project: string;
  trustedKeys: string[];
  env: NodeJS.ProcessEnv;
  systems: string[];
  all: boolean;
  json: boolean;
  requireSigned: boolean;
  /** --provenance FILE: a logged record to check against the one target. */
  provenance?: string;
}

function parseRequest(args: string[], io: Io): VerifyRequest | number {
  const parsed = parseCommandLine(
    args,
    {
      project: { type: "string" },
      "user-space": { type: "string" },
      system: { type: "string", multiple: true },
      "trusted-key": { type: "string", multiple: true },
      kind: { type: "string" },
      json: { type: "boolean" },
      verbose: { type: "boolean" },
      current: { type: "boolean" },
      "emit-ts": { type: "boolean" },
      "not-before": { type: "string" },
      "require-signed-sources": { type: "boolean" },
      provenance: { type: "string" },
    },
    USAGE,
    io,
  );
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  if (values.kind !== undefined && !KINDS.includes(values.kind)) {
    io.stderr.write(`--kind must be one of ${KINDS.join(", ")}\n\n${USAGE}\n`);
    return 2;
  }
  const notBefore = values["not-before"];
  if (notBefore !== undefined && typeof parseNotBefore(notBefore) === "string") {
    io.stderr.write(`${parseNotBefore(notBefore) as string}\n\n${USAGE}\n`);
    return 2;
  }
  // --current recomputes the sources of --project (default: each output folder's parent) and these spaces.
  const current = values.current ? { project: values.project === undefined ? undefined : resolve(io.cwd, values.project), userSpace: values["user-space"], systems: values.system, emitTs: values["emit-ts"] === true } : undefined;
  return {
    positionals,
    forced: positionals.length > 0 ? (values.kind as FileKind | undefined) : undefined,
    fresh: { ...(notBefore === undefined ? {} : { notBefore }), ...(current ? { current } : {}) },
    project: resolve(io.cwd, values.project ?? "."),
    trustedKeys: values["trusted-key"] ?? [],
    // --user-space names the user space for build output too (the anchors read USER_SPACE).
    env: values["user-space"] ? { ...io.env, USER_SPACE: resolve(io.cwd, values["user-space"]) } : io.env,
    systems: values.system ?? [],
    all: values.verbose === true || values.json === true,
    json: values.json === true,
    requireSigned: values["require-signed-sources"] === true,
    ...(values.provenance === undefined ? {} : { provenance: resolve(io.cwd, values.provenance) }),
  };
}

/** Checks every target the request names: one line per source, bundle, output folder and failed output file. */
async function checkTargets(req: VerifyRequest, io: Io): Promise<{ lines: Line[]; unreadable: number; results: VerifyResult[] }> {
  let unreadable = 0;
  const paths: string[] = [];
  for (const target of req.positionals.length > 0 ? req.positionals : [req.project]) {
    const path = resolve(io.cwd, target);
    if (existsSync(path)) paths.push(path);
    else {
      io.stderr.write(`error: cannot read ${target}: ENOENT\n`);
      unreadable++;
    }
  }
  const targets = findTargets(paths, req.forced);
  const shown = (path: string) => relative(io.cwd, path).split(sep).join("/") || path;
  // A folder the walk did not check fails the command: "verified" must not mean "verified what was easy to reach".
  for (const { path, why } of targets.problems) io.stderr.write(`error: ${shown(path)}: not checked: ${why}\n`);
  unreadable += targets.problems.length;
  const lines: Line[] = [];
  const results: VerifyResult[] = [];
  const warned = new Set<string>();
  const warn = (w: string) => {
    if (!warned.has(w)) io.stderr.write(`warning: ${w}\n`);
    warned.add(w);
  };
  const options = { trustedKeys: req.trustedKeys, env: req.env, cwd: io.cwd, ...req.fresh };
  for (const dir of targets.outputs) {
    const result = await verify(shown(dir), options);
    results.push(result);
    result.anchors?.warnings.forEach(warn);
    lines.push(...outputLines(result, shown, shown(dir), req.all));
    for (const b of result.output!.bundles.filter((b) => b.endsWith(".mjs"))) targets.signed.push(resolve(result.path, b));
  }
  for (const path of targets.signed) {
    const result = await verify(path, options);
    results.push(result);
    result.anchors?.warnings.forEach(warn);
    lines.push(bundleLine(result, shown(path)));
  }
  if (targets.sources.length > 0) {
    const user = resolve(io.cwd, userSpace(req.env));
    const spaces = [{ root: req.project, label: "project" }, { root: user, label: "user" }, ...req.systems.map((s) => ({ root: resolve(io.cwd, s), label: `system:${s}` }))];
    const trust = trustForSpaces(spaces, req.env, req.trustedKeys, io.cwd);
    trust.warnings.forEach(warn);
    for (const path of targets.sources) {
      const { kind, r } = verifySource(path, shown(path), trust, req.forced);
      lines.push(sourceLine(shown(path), kind, r, trust, req.requireSigned));
    }
  }
  return { lines, unreadable, results };
}

/** `rye verify`: checks build output, bundles and Rye items. */
export async function run(args: string[], io: Io): Promise<number> {
  const req = parseRequest(args, io);
  if (typeof req === "number") return req;
  if (req.provenance !== undefined) return checkRecord(req, req.provenance, io);
  const { lines, unreadable } = await checkTargets(req, io);
  const failed = unreadable + lines.filter((l) => !l.ok).length;
  printReport(lines, failed, req.json, io);
  if (lines.length === 0 && failed === 0) {
    io.stderr.write("error: nothing to verify (no Rye items, build output or bundles found)\n");
    return 1;
  }
  return failed > 0 ? 1 : 0;
}

/**
 * `--provenance FILE`: verifies the one target (an output folder or bundle, default out/) as a plain
 * rye verify does, and only once it verified compares the record's fields with what it signed.
 */
async function checkRecord(req: VerifyRequest, file: string, io: Io): Promise<number> {
  const label = relative(io.cwd, file).split(sep).join("/") || file;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    io.stderr.write(`error: cannot read ${label}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return 2;
  }
  const record = parseProvenanceRecord(text, label);
  if (typeof record === "string") {
    io.stderr.write(`error: ${record}\n`);
    return 2;
  }
  if (req.positionals.length > 1) {
    io.stderr.write(`--provenance checks one output folder or bundle, not ${req.positionals.length}\n\n${USAGE}\n`);
    return 2;
  }
  const { lines, unreadable, results } = await checkTargets({ ...req, positionals: req.positionals.length === 1 ? req.positionals : [resolve(req.project, "out")], all: false }, io);
  const failed = unreadable + lines.filter((l) => !l.ok).length;
  const target = results[0];
  if (failed > 0 || !target) {
    printReport(lines, failed, req.json, io);
    io.stderr.write(`error: ${label} was not compared: ${target ? "the output did not verify" : "no build output or bundle to check it against"}\n`);
    return 1;
  }
  const shown = relative(io.cwd, target.path).split(sep).join("/") || target.path;
  const problems = provenanceProblems(target, record, label, shown);
  if (problems.length > 0) {
    io.stdout.write(`${problems.join("\n")}\n`);
    return 1;
  }
  io.stdout.write(`verified      provenance ${label}  ${record.kind} ${record.item} matches ${shown} (source, signer ${record.signer}, compiler ${record.compiler}, build ${record.build_id})\n`);
  return 0;
}
