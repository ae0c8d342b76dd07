import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  computeIntegrity,
  contentHash,
  createTrustStore,
  fingerprint,
  formatFor,
  formatSignatureLine,
  hashRegion,
  inferItemId,
  insertSignatureLine,
  loadTrustStore,
  parseSignatureLine,
  pyFloat,
  removeSignatureLine,
  signatureFormatFor,
  signItem,
  trustStoreFromPems,
  verifyItem,
  type ItemKind,
  type SignatureInfo,
} from "../../src/sign/index.js";
import { sharedRows, at, hasShared, SHARED_DIR, SHARED_SKIP_REASON, vectorsFor, type Check, type Vector } from "../helpers/shared.js";
import { TEST_KEY } from "./fixtures.js";

const vectors = vectorsFor("signature");

function snake(info: SignatureInfo | null) {
  if (!info) return null;
  const out: Record<string, string> = { timestamp: info.timestamp, hash: info.hash, ed25519_sig: info.signature, pubkey_fp: info.fingerprint };
  if (info.registryProvider) out.registry_provider = info.registryProvider;
  if (info.registryUsername) out.registry_username = info.registryUsername;
  return out;
}

function raised(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (e) {
    return { error: (e as Error).name, message: (e as Error).message };
  }
}

// The C system bundles ship 6ea18199041a1ea8; verify_item vectors ran with them present (see x901's notes).
function verifyTrust(v: Vector) {
  const system = loadTrustStore([{ root: resolve(SHARED_DIR, "corpus/rye-2026-04/core"), label: "system:ryeos-core" }]);
  return createTrustStore([...trustStoreFromPems(v.trusted_keys ?? {}, "test", "project").list(), ...system.list()]);
}

// x056's input holds Python floats (1.0, 1e+20, -0.0) that JSON.parse turns into integers; reread them from the file.
function inputKeepingFloats(id: string): unknown {
  const raw = readFileSync(resolve(SHARED_DIR, "vectors/rye-vectors.json"), "utf8");
  const from = raw.indexOf("{", raw.indexOf('"input"', raw.indexOf(`"id": "${id}"`)));
  let depth = 0;
  let end = from;
  for (; end < raw.length; end++) {
    if (raw[end] === "{") depth++;
    if (raw[end] === "}" && --depth === 0) break;
  }
  const marked = raw.slice(from, end + 1).replace(/(?<=[:,[]\s*)(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?=\s*[,}\]])/g, (n) =>
    /[.eE]/.test(n) ? `{"__float__":"${n}"}` : n,
  );
  return JSON.parse(marked, (_k, v) => (v && typeof v === "object" && "__float__" in v ? pyFloat(Number(v.__float__)) : v));
}

/** Runs the port of the vector's `function` and returns its result in the vector's shape. */
function run(v: Vector): unknown {
  const fn = v.function;
  const kind = v.kind as ItemKind;
  const format = () => formatFor(kind, v.filename);
  if (fn.includes("verify_signature")) {
    const r = verifyItem(v.input, kind, trustStoreFromPems(v.trusted_keys), { path: v.filename ?? `x.md` });
    if (!r.signed) return { signature: null };
    const key = r.trusted ? trustStoreFromPems(v.trusted_keys).get(r.signature!.fingerprint) : undefined;
    return {
      signature: snake(r.signature),
      computed_hash: r.actualHash,
      hash_matches: r.hashMatches,
      fingerprint_of_key: key ? fingerprint(key.publicPem) : null,
      ed25519_valid: r.signatureValid,
    };
  }
  if (fn.includes("sign_content")) return signItem(v.input, kind, TEST_KEY, v.params.timestamp, v.filename);
  if (fn.endsWith("_infer_item_id")) return inferItemId(v.path, kind);
  if (fn.includes("verify_item")) {
    const r = verifyItem(v.input, kind, verifyTrust(v), {
      path: `<project>/${v.relpath}`,
      allowUnsigned: v.allow_unsigned === true,
      devMode: v.env?.RYE_DEV_MODE === "1",
    });
    return r.ok ? r.result : { error: "IntegrityError", message: r.message };
  }
  if (fn.includes("get_signature_format")) {
    return raised(() => {
      const f = signatureFormatFor(kind, `x${v.ext}`);
      return { prefix: f.prefix, ...(f.suffix ? { suffix: f.suffix } : {}), after_shebang: f.afterShebang };
    });
  }
  if (fn.endsWith("canonical_json")) return canonicalJson(v.id === "signature-x056" ? inputKeepingFloats(v.id) : v.input);
  if (fn.endsWith("compute_integrity")) return computeIntegrity(v.input);
  if (fn.endsWith("get_signature_info")) return snake(parseSignatureLine(v.input, format()));
  if (fn.endsWith("remove_signature")) return removeSignatureLine(v.input, format());
  if (fn.endsWith("extract_content_for_hash")) return raised(() => hashRegion(v.input, kind, v.filename));
  if (fn.endsWith("compute_hash")) return contentHash(v.input, kind, v.filename);
  if (fn.endsWith("format_signature")) {
    const p = v.params;
    return formatSignatureLine(format(), { timestamp: p.timestamp, hash: p.hash, signature: p.ed25519_sig, fingerprint: p.pubkey_fp });
  }
  if (fn.endsWith("insert_signature")) return insertSignatureLine(v.input, v.params.signature, format());
  if (fn.includes("compute_key_fingerprint")) return fingerprint(TEST_KEY.publicPem);
  throw new Error(`no port mapped for ${fn}`);
}

function check(actual: unknown, c: Check): void {
  const value = at(actual, c.path);
  switch (c.op) {
    case "eq":
      return void expect(value).toEqual(c.value);
    case "contains":
      return void expect(String(value)).toContain(c.value);
    case "not_contains":
      return void expect(String(value)).not.toContain(c.value);
    case "regex":
    case "regex_at":
      return void expect(String(value)).toMatch(new RegExp(String(c.value)));
    case "json_key_order":
      return void expect(Object.keys(at(JSON.parse(String(actual)), c.path) as object)).toEqual(c.value);
    default:
      throw new Error(`unknown check ${c.op}`);
  }
}

describe.skipIf(!hasShared)(`signature vectors (era current)${hasShared ? "" : ` — skipped: ${SHARED_SKIP_REASON}`}`, () => {
  it("has all 97 public current-era signature vectors, every one mapped to a port", () => {
    expect(vectors).toHaveLength(97);
  });

  for (const v of sharedRows("signature vectors", vectors)) {
    it(`${v.id}: ${v.function.split("::").pop()!.slice(0, 60)}`, () => {
      const actual = run(v);
      expect(actual).toEqual(v.expected);
      for (const c of v.expected_contains ?? []) check(actual, c);
    });
  }
});
