// Every compiled module checks its own file before its first render: line 1 must be a valid
// `// rye:signed:` line by a trusted key (src/sign/sign-module.ts writes it). The trust anchors
// live outside out/, so whoever can edit a module cannot also make it trusted:
//   - this machine's signing key (<user space>/.ai/config/keys/signing/public_key.pem);
//   - trusted keys of the user space and of the project holding out/ (.ai/config/keys/trusted,
//     .ai/trusted_keys);
//   - RYE_TRUSTED_KEYS: paths of .pem/.toml files or directories of them (CI).
// RYE_ALLOW_UNSIGNED=1 lets unsigned modules run (builds made with --allow-unsigned), loudly;
// a signed module must always verify.
import { createHash, createPublicKey } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { IntegrityError, verifyModuleSource } from "./verify-module.js";

const verified = new Set<string>();
const anchorsByProject = new Map<string, Record<string, string>>();
let warned = false;

function fingerprintOf(pem: string): string | null {
  try {
    const spki = createPublicKey(pem).export({ type: "spki", format: "pem" }).toString().trim() + "\n";
    return createHash("sha256").update(spki).digest("hex").slice(0, 16);
  } catch {
    return null;
  }
}

/** PEMs in a .pem file, or in the `pem = """…"""` of a trusted-key .toml. */
function pemsIn(path: string): string[] {
  const text = readFileSync(path, "utf8");
  if (path.endsWith(".pem")) return [text];
  return [...text.matchAll(/pem\s*=\s*(?:"""|''')\s*([\s\S]*?)(?:"""|''')/g)].map((m) => m[1]!);
}

function addFrom(path: string, into: Record<string, string>): void {
  if (!existsSync(path)) return;
  const files = statSync(path).isDirectory()
    ? readdirSync(path).filter((f) => f.endsWith(".pem") || f.endsWith(".toml")).map((f) => join(path, f))
    : [path];
  for (const file of files) {
    if (file.endsWith("private_key.pem")) continue;
    for (const pem of pemsIn(file)) {
      const fp = fingerprintOf(pem);
      if (fp && !(fp in into)) into[fp] = pem;
    }
  }
}

/** The nearest directory above `from` that holds `.ai/`, if any. */
function projectOf(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".ai"))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** Keys trusted wherever this process runs: RYE_TRUSTED_KEYS, then this machine's signing key. */
export function machineAnchors(env: Record<string, string | undefined> = process.env): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const p of (env.RYE_TRUSTED_KEYS ?? "").split(delimiter).filter(Boolean)) addFrom(p, keys);
  const user = env.USER_SPACE || homedir();
  addFrom(env.RYE_SIGNING_KEY_DIR ? join(env.RYE_SIGNING_KEY_DIR, "public_key.pem") : join(user, ".ai", "config", "keys", "signing", "public_key.pem"), keys);
  return keys;
}

/** Trusted keys for a module file: fingerprint → PEM, from the anchors described above. */
export function trustAnchors(modulePath: string, env: Record<string, string | undefined> = process.env): Record<string, string> {
  const project = projectOf(dirname(modulePath)) ?? "";
  const cached = anchorsByProject.get(project);
  if (cached) return cached;
  const keys = machineAnchors(env);
  const user = env.USER_SPACE || homedir();
  for (const root of [user, project].filter(Boolean)) {
    addFrom(join(root, ".ai", "config", "keys", "trusted"), keys);
    addFrom(join(root, ".ai", "trusted_keys"), keys);
  }
  anchorsByProject.set(project, keys);
  return keys;
}

/** Throws an IntegrityError naming `itemId` when the module at `moduleUrl` fails verification; cached per module. */
export function ensureIntegrity(moduleUrl: string, itemId: string): void {
  if (verified.has(moduleUrl)) return;
  if (!moduleUrl.startsWith("file:")) throw new IntegrityError(itemId, `Cannot verify ${itemId}: it was not loaded from a file (${moduleUrl.slice(0, 40)}…)`);
  const path = fileURLToPath(moduleUrl);
  const text = readFileSync(path, "utf8");
  if (!text.startsWith("// rye:signed:") && process.env.RYE_ALLOW_UNSIGNED === "1") {
    if (!warned) process.emitWarning("RYE_ALLOW_UNSIGNED=1: running unsigned compiled modules without an integrity check", "RyeIntegrityWarning");
    warned = true;
  } else {
    verifyModuleSource(text, trustAnchors(path), itemId);
  }
  verified.add(moduleUrl);
}

export { IntegrityError };
