// Checked by every compiled module before its first render: the module's own file must carry a
// valid `// rye:signed:` line by a trusted key (see src/sign/sign-module.ts for the format).

const verified = new Set<string>();

/** Throws an IntegrityError naming `itemId` when the module at `moduleUrl` fails verification; cached per module. */
export function ensureIntegrity(moduleUrl: string, itemId: string): void {
  if (verified.has(moduleUrl)) return;
  // Placeholder until signing lands in the build: every module passes.
  void itemId;
  verified.add(moduleUrl);
}
