/**
 * The specifier the register entry hands `import.meta.resolve` to have the hooks thread resolve
 * another module's import: the prefix, then `[specifier, parentURL]` as URI-encoded JSON.
 */
export const RESOLVE_PREFIX = "rye-resolve:";

/** The request inside `specifier`, or null when it is an ordinary specifier. */
export function readResolveRequest(specifier: string): { specifier: string; parentURL: string } | null {
  if (!specifier.startsWith(RESOLVE_PREFIX)) return null;
  try {
    const parsed = JSON.parse(decodeURIComponent(specifier.slice(RESOLVE_PREFIX.length))) as unknown;
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && typeof parsed[1] === "string") return { specifier: parsed[0], parentURL: parsed[1] };
  } catch {
    // Not one of ours: resolved as written, and fails as Node fails it.
  }
  return null;
}
