/**
 * Which checkout path a text names: an environment value or an argument of a process a bundle run
 * starts. Judged by what the text holds, never by the variable's name: HOME, ZDOTDIR, PERL5OPT's
 * `-I<dir>`, GIT_CONFIG_GLOBAL or a variable nobody listed all name files the same way.
 *
 * A text names a checkout path when
 *   - one of the checkout's roots appears in it as the start of an absolute path (after a separator,
 *     the start of the text, or an option's letters such as `-I`), whether the path exists or not;
 *   - one of its words (split at white space, `:`, `;`, `,` and `=`) is absolute and inside the
 *     checkout, or is relative and names an existing file or folder inside it from `cwd` (`.`,
 *     `ci/run.sh`, a bare `ci`): a relative word that names nothing is taken as data (`test`,
 *     `refs/heads/main`), since what it would name is not there for the run to use.
 * A path the bundle's plan hashed is not a mention: its bytes were checked before the run.
 */
import { lstatSync, realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { Checkout } from "./checkout.js";

/** The checkout and the files its plan vouches for (as named and resolved). */
export interface MentionScope {
  checkout: Checkout;
  vouched: ReadonlySet<string>;
  /** The working directory relative words resolve against. */
  cwd: string;
}

// Where a path may start or end: list and option separators, and the quotes and brackets of code text.
const SEPARATOR = /[\s:;,='"`()<>|&]/;
const WORDS = /[\s:;,='"`()<>|&]+/;
// An option's letters before a path written onto it: `-I/x`, `--rcfile/x` is not a form, `-r/x` is.
const OPTION_PREFIX = /^-{1,2}[A-Za-z][A-Za-z0-9-]*$/;

const exists = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** The first checkout path `text` names that the plan did not hash, or null. */
export function checkoutMention(text: string, scope: MentionScope): string | null {
  return checkoutMentions(text, scope)[0] ?? null;
}

/** Every checkout path `text` names that the plan did not hash, as written (relative words too). */
export function checkoutMentions(text: string, scope: MentionScope): string[] {
  return [...rootMentions(text, scope), ...wordMentions(text, scope)];
}

function rootMentions(text: string, scope: MentionScope): string[] {
  const found: string[] = [];
  for (const root of scope.checkout.roots) {
    for (let at = text.indexOf(root); at >= 0; at = text.indexOf(root, at + 1)) {
      const after = text[at + root.length];
      if (after !== undefined && after !== "/" && !SEPARATOR.test(after)) continue;
      let start = at;
      while (start > 0 && !SEPARATOR.test(text[start - 1]!)) start--;
      const before = text.slice(start, at);
      if (before !== "" && !OPTION_PREFIX.test(before)) continue;
      let end = at + root.length;
      while (end < text.length && !SEPARATOR.test(text[end]!) ) end++;
      const path = text.slice(at, end);
      if (!vouched(path, scope)) found.push(path);
    }
  }
  return found;
}

function wordMentions(text: string, scope: MentionScope): string[] {
  const found: string[] = [];
  for (const word of text.split(WORDS)) {
    if (!word) continue;
    const slash = word.indexOf("/");
    const absolute = isAbsolute(word) ? word : OPTION_PREFIX.test(word.slice(0, slash)) && slash > 0 ? word.slice(slash) : null;
    if (absolute !== null) {
      if (scope.checkout.contains(absolute) && !vouched(absolute, scope)) found.push(absolute);
      continue;
    }
    const path = resolve(scope.cwd, word);
    if (exists(path) && scope.checkout.contains(path) && !vouched(path, scope)) found.push(word);
  }
  return found;
}

function vouched(path: string, scope: MentionScope): boolean {
  const named = resolve(scope.cwd, path);
  if (scope.vouched.has(named)) return true;
  try {
    return scope.vouched.has(realpathSync(named));
  } catch {
    return false;
  }
}
