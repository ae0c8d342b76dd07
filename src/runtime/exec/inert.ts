// The INERT value set: ASCII letters, digits and `_`, which only ever extend the identifier, number,
// string or word they are spliced into. Every punctuation character ends or opens something in some
// language rye cannot see into: `-` `.` `:` `,` `+` `=` `/` delimit Perl's quote-like operators
// (`qx-id-`, `qx.id.`, `system+q:touch:,q:/f:`), `/` ends a sed `s///` whose flags then run (`e`) or
// write (`w`), `-` makes an option. A value spliced into a larger argument that rye cannot prove to
// be data (a `python -c` program, a `node -e` script, `perl -e`, an awk or sed program, `ssh host
// cmd`, a wrapper rye does not know, or a shell script position other than a data command's
// argument) must be inert. Letters stay code where the author's text puts them in code position (a
// bare Perl word, a regex flag list): the set keeps a value inside its token, it cannot make a
// position that reads names as code safe.

/** ASCII letters, digits and `_`, at most 4096 characters. */
export const INERT_VALUE = /^[A-Za-z0-9_]{0,4096}$/;

/** The characters of the inert set, as the docs and messages state them. */
export const INERT_DESCRIPTION = "ASCII letters, digits and _ only, at most 4096 characters";

/** Whether `value` is inert. */
export const isInert = (value: string): boolean => INERT_VALUE.test(value);

/**
 * Why `value`, spliced for `placeholder` into `where`, is refused, or null when it is inert. The
 * message names the placeholder and says how to pass the value as a whole argument instead.
 */
export function inertProblem(placeholder: string, value: string, where: string): string | null {
  if (isInert(value)) return null;
  const outside = /[^A-Za-z0-9_]/u.exec(value)?.[0];
  const bad = outside === undefined ? `is ${value.length} characters long` : `holds ${JSON.stringify(outside)}`;
  return (
    `the value of ${placeholder} ${bad}; it is spliced into ${where}, where rye accepts only inert values (${INERT_DESCRIPTION}). ` +
    `Make ${placeholder} a whole argument of its own (e.g. args: [..., "${placeholder}"]) and read it there (sys.argv, process.argv, "$1"), or pass it on stdin. ` +
    `Node, Perl and Ruby read options after their -e program: there, write "--" first (args: [..., "--", "${placeholder}"])`
  );
}
