// Source signatures seen by `rye build`. Without a trust store only the cheap part runs: a signed
// item whose hash no longer matches is a stale signature (a warning; no Ed25519 work). With one
// (`--verify-sources`) every project item must verify as the original's loader would demand.
import type { Diagnostic, Location } from "../diagnostics/diagnostic.js";
import * as d from "../diagnostics/codes.js";
import type { SourceFile } from "../model/source.js";
import { createTrustStore, type TrustStore } from "./trust-store.js";
import { UNREADABLE_FIX, verifyItem } from "./verify-item.js";
import { factsOf, mayBeSigned } from "../project/source-facts.js";

const NO_KEYS = createTrustStore([]);

/** Where the signature line sits (line 1, or 2 after a shebang), else the file start. */
function signatureLoc(source: SourceFile): Location {
  const lines = source.text.split("\n", 2);
  for (let i = 0; i < lines.length; i++) {
    const column = lines[i]!.indexOf("rye:signed:");
    if (column >= 0) {
      const start = { offset: (i === 0 ? 0 : lines[0]!.length + 1) + column, line: i + 1, column: column + 1 };
      return { source: source.path, start, end: { ...start, offset: start.offset + 11, column: start.column + 11 } };
    }
  }
  const at = { offset: 0, line: 1, column: 1 };
  return { source: source.path, start: at, end: at };
}

// Without a trust store a file's diagnostics depend on its text alone: a watching build rereads
// only changed files, so the others keep their objects and are not checked again.
const seen = new WeakMap<SourceFile, Diagnostic[]>();

/** Diagnostics for the project's source signatures; `trust` switches on full verification. */
export function checkSourceSignatures(sources: readonly SourceFile[], trust: TrustStore | null): Diagnostic[] {
  const out: Diagnostic[] = [];
  // A store entry that could not be read is an error at that entry; judge() then refuses every signature too.
  const start = { offset: 0, line: 1, column: 1 };
  for (const u of trust?.unreadable ?? []) out.push(d.unreadablePath({ source: u.path, start, end: start }, `trust store entry: ${u.reason}; ${UNREADABLE_FIX}`));
  for (const source of sources) {
    if ((source.space ?? "project") !== "project") continue;
    if (trust) out.push(...checkSource(source, trust));
    else {
      let found = seen.get(source);
      if (!found) seen.set(source, (found = checkSource(source, null)));
      if (found.length > 0) out.push(...found);
    }
  }
  return out;
}

function checkSource(source: SourceFile, trust: TrustStore | null): Diagnostic[] {
  const out: Diagnostic[] = [];
  // Cheap pre-filter: an unsigned file is only of interest when every item must be signed.
  if (!trust && !(factsOf(source)?.signed ?? mayBeSigned(source.text))) return out;
  const result = verifyItem(source.text, source.kind, trust ?? NO_KEYS, { path: source.path });
  const loc = () => signatureLoc(source);
  const first = result.message.split("\n")[0]!;
  switch (result.outcome) {
    case "hash_mismatch":
      // A stale tool is already an error of its chain (RYE4009), as the original refuses to run it.
      if (source.kind === "tool") break;
      out.push(d.staleSignature(loc(), `Integrity failed: ${source.path} (expected ${result.expectedHash?.slice(0, 16)}…, got ${result.actualHash?.slice(0, 16)}…): it changed after signing; re-sign it with rye sign ${source.path}, or remove the signature line`, trust !== null));
      break;
    case "unsigned":
      if (trust) out.push(d.unsignedSource(loc(), `${first}: --verify-sources requires every item to be signed; sign it with rye sign ${source.path}`));
      break;
    case "untrusted":
      if (trust) out.push(d.untrustedSource(loc(), `${first}; trusted keys: ${trust.list().filter((k) => k.grants !== false).map((k) => k.fingerprint).join(", ") || "none"}. Trust it with rye keys trust FILE (the user space's trust store) or RYE_TRUSTED_KEYS=FILE, or re-sign it with rye sign ${source.path}`));
      break;
    case "bad_signature":
      if (trust) out.push(d.badSourceSignature(loc(), `${first}: the file may have been tampered with after signing`));
      break;
    // "error" (e.g. a signed directive without XML) is reported by the parser with a better location.
  }
  return out;
}
