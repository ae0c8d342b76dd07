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
import { MAX_PATH_COMPONENTS, PathTooDeepError, type Checkout } from "./checkout.js";

/** The checkout and the files its plan vouches for (as named and resolved). */
export interface MentionScope {
  checkout: Checkout;
  vouched: ReadonlySet<string>;
  /** The working directory relative words resolve against. */
  cwd: string;
}

// Where a path may start or end: list and option separators, and the quotes and brackets of code text.
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

/**
 * Every checkout path `text` names that the plan did not hash, as written (relative words too),
 * each once. The text is split into words once and each distinct word is judged once, so the work
 * grows with the text's length whatever a caller's value repeats.
 */
export function checkoutMentions(text: string, scope: MentionScope): string[] {
  const words = text.split(WORDS).filter((w) => w !== "");
  const starts = words.map(pathStart);
  const judged = new Map<string, boolean>();
  const isVouched = (path: string) => judged.get(path) ?? judged.set(path, vouched(path, scope)).get(path)!;
  const found: string[] = [];
  // Roots in list order, then words in text order: the order a scan of the text for each root finds them.
  for (const root of scope.checkout.roots) {
    for (const path of starts) if (path !== null && startsWithRoot(path, root) && !isVouched(path)) found.push(path);
  }
  const mentions = new Map<string, string | null>();
  words.forEach((word, i) => {
    if (!mentions.has(word)) mentions.set(word, wordMention(word, starts[i]!, scope, isVouched));
    const mention = mentions.get(word)!;
    if (mention !== null) found.push(mention);
  });
  return [...new Set(found)];
}

/**
 * Where an absolute path starts in a word: the word itself, or what follows an option's letters
 * (`-I/x`); null for a word holding none. A root cannot start later in a word: the text before it
 * would hold a `/` and so be neither empty nor an option's letters.
 */
function pathStart(word: string): string | null {
  if (isAbsolute(word)) return word;
  const slash = word.indexOf("/");
  return slash > 0 && OPTION_PREFIX.test(word.slice(0, slash)) ? word.slice(slash) : null;
}

/** True when `path` is `root` or continues it with `/` (as written, no links resolved). */
const startsWithRoot = (path: string, root: string) =>
  path.startsWith(root) && (path.length === root.length || path[root.length] === "/");

/** The checkout path one word names, or null. A path too deep to resolve is taken as one (fail closed). */
function wordMention(word: string, absolute: string | null, scope: MentionScope, isVouched: (path: string) => boolean): string | null {
  try {
    if (absolute !== null) return scope.checkout.contains(absolute) && !isVouched(absolute) ? absolute : null;
    const path = resolve(scope.cwd, word);
    return exists(path) && scope.checkout.contains(path) && !isVouched(path) ? word : null;
  } catch (error) {
    if (!(error instanceof PathTooDeepError)) throw error;
    return `${word.slice(0, 64)}… (a path of more than ${MAX_PATH_COMPONENTS} components, which the guard does not resolve)`;
  }
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
