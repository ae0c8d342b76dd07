import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { generateKeyPair, signingKeyFrom, type SigningKey } from "../../src/sign/index.js";

/** The vectors' deterministic test key: Ed25519 seed bytes 0..31, fingerprint f0ff50dacf109dea. */
export const TEST_KEY: SigningKey = signingKeyFrom(Uint8Array.from({ length: 32 }, (_, i) => i));

/** The three real public keys (rye-reference.md §6; the trust-store TOMLs of the original repository). */
export const REAL_KEYS: Record<string, { owner: string; pem: string }> = {
  "9fbfabe975fa5a7f": { owner: "leo", pem: spki("MCowBQYDK2VwAyEAY24FNlBttfGlH91xaEe4Ms0Meu5kvHL8L8W6w9lVyLU=") },
  "4b987fd4e40303ac": { owner: "leo", pem: spki("MCowBQYDK2VwAyEAgc0X8VKJuKzFh/aSw/XeYEdp3keIqncwu9ySd81Y69g=") },
  "6ea18199041a1ea8": { owner: "github-ci", pem: spki("MCowBQYDK2VwAyEAUbAHc8d2KetZE2I9eb+VaUpTLkNsDJtFaAsY0nTEm7I=") },
};

function spki(b64: string): string {
  return `-----BEGIN PUBLIC KEY-----\n${b64}\n-----END PUBLIC KEY-----\n`;
}

/** A fresh random signing key. */
export function freshKey(): SigningKey {
  return signingKeyFrom(generateKeyPair().privatePem);
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A temporary directory removed after the current test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "rye-sign-"));
  dirs.push(dir);
  return dir;
}

/** Collects what a CLI command writes. */
export function captureIo(cwd: string, env: NodeJS.ProcessEnv = {}) {
  let stdout = "";
  let stderr = "";
  const sink = (append: (s: string) => void) =>
    ({ write: (chunk: string | Uint8Array) => (append(String(chunk)), true) }) as unknown as NodeJS.WritableStream;
  return {
    io: { stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)), cwd, env },
    out: () => stdout,
    err: () => stderr,
  };
}
