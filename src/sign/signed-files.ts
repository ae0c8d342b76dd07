// Which output files the signed manifest lists, and which of them carry a signature line of their own.
// Its own module so that both the manifest and the module signer can ask without importing each other.

/**
 * The files a build's manifest lists: its modules (.js, .mjs, .ts), their declarations (.d.ts), and
 * every package.json, at any level: Node reads a folder's `.js` files as ES modules or as CommonJS
 * by the nearest package.json above them, so that file decides what every module means and is
 * bound like one (a missing or edited one fails verification).
 */
export const LISTED = /\.(?:js|mjs|ts)$|(?:^|\/)package\.json$/;

/** The files that are code: each carries a signature line of its own unless it is a declaration. */
const MODULE = /\.(?:js|mjs|ts)$/;

/** Whether `rel` names a declaration: read by TypeScript for types only, never evaluated. */
export function isDeclaration(rel: string): boolean {
  return rel.endsWith(".d.ts");
}

/**
 * Whether a listed file also starts with its own signature line: every module does, so one can be
 * checked, loaded or bundled on its own. A declaration is bound by the manifest alone: an Ed25519
 * signature per declaration cost a cold build ~5 % of its time for no check anyone makes
 * (docs/signing.md).
 */
export function carriesSignatureLine(rel: string): boolean {
  return MODULE.test(rel) && !isDeclaration(rel);
}
