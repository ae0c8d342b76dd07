// Ed25519 over 64-char hex hashes (what Rye signs): node:crypto against @noble/ed25519.
// Usage: node bench/ed25519.mjs [iterations]
import { createHash, createPrivateKey, createPublicKey, sign, verify } from "node:crypto";
import assert from "node:assert/strict";
import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";

ed.hashes.sha512 = sha512;

const N = Number(process.argv[2] ?? 2000);
const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
const priv = createPrivateKey({ key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]), format: "der", type: "pkcs8" });
const pub = createPublicKey(priv);
const rawPub = pub.export({ type: "spki", format: "der" }).subarray(12);
assert.deepEqual(new Uint8Array(rawPub), ed.getPublicKey(seed));

const messages = Array.from({ length: N }, (_, i) => Buffer.from(createHash("sha256").update(String(i)).digest("hex"), "ascii"));

function time(label, fn) {
  fn(messages.slice(0, Math.min(200, N))); // warm-up
  const start = process.hrtime.bigint();
  const result = fn(messages);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const ops = (N / ms) * 1000;
  console.log(`${label.padEnd(28)} ${ops.toFixed(0).padStart(8)} ops/s  (${ms.toFixed(1)} ms for ${N})`);
  return { ops, result };
}

const nodeSign = time("node:crypto sign", (ms) => ms.map((m) => sign(null, m, priv)));
const nobleSign = time("@noble/ed25519 sign", (ms) => ms.map((m) => ed.sign(m, seed)));
for (let i = 0; i < N; i++) assert.deepEqual(new Uint8Array(nodeSign.result[i]), nobleSign.result[i], `signature ${i} differs`);
console.log(`all ${N} signatures byte-identical`);

const sigs = nodeSign.result;
const nodeVerify = time("node:crypto verify", (ms) => ms.map((m, i) => verify(null, m, pub, sigs[i])));
const nobleVerify = time("@noble/ed25519 verify", (ms) => ms.map((m, i) => ed.verify(sigs[i], m, rawPub)));
assert.ok(nodeVerify.result.every(Boolean) && nobleVerify.result.every(Boolean), "a signature failed to verify");

console.log(`ratio node:crypto / noble: sign ${(nodeSign.ops / nobleSign.ops).toFixed(1)}x, verify ${(nodeVerify.ops / nobleVerify.ops).toFixed(1)}x`);
