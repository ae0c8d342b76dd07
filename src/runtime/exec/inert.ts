// The INERT value set: text that cannot end a token, open a string, a comment, an expansion, a
// subscript or a glob in a shell, Python, JavaScript, Perl or awk program, and cannot be read as
// an option. A value spliced into a larger argument that rye cannot prove to be data (a `python -c`
// program, a `node -e` script, an awk program, `ssh host cmd`, a wrapper rye does not know, or a
// shell script position other than a data command's argument) must be inert.

/** ASCII letters, digits and `_ . / : , + = -`, at most 4096 characters, not starting with `-`. */
export const INERT_VALUE = /^(?:[A-Za-z0-9_./:,+=][A-Za-z0-9_./:,+=-]{0,4095})?$/;

/** The characters of the inert set, as the docs and messages state them. */
export const INERT_DESCRIPTION = "ASCII letters, digits and _ . / : , + = - (not starting with -, at most 4096 characters)";

/** Whether `value` is inert. */
export const isInert = (value: string): boolean => INERT_VALUE.test(value);

/**
 * Why `value`, spliced for `placeholder` into `where`, is refused, or null when it is inert. The
 * message names the placeholder and says how to pass the value as a whole argument instead.
 */
export function inertProblem(placeholder: string, value: string, where: string): string | null {
  if (isInert(value)) return null;
  const bad = value.startsWith("-") ? "starts with '-'" : value.length > 4096 ? `is ${value.length} characters long` : `holds ${JSON.stringify(firstOutside(value))}`;
  return (
    `the value of ${placeholder} ${bad}; it is spliced into ${where}, where rye accepts only inert values (${INERT_DESCRIPTION}). ` +
    `Make ${placeholder} a whole argument of its own (e.g. args: [..., "${placeholder}"]) and read it there (sys.argv, process.argv, "$1"), or pass it on stdin`
  );
}

function firstOutside(value: string): string {
  for (const c of value) if (!/[A-Za-z0-9_./:,+=-]/.test(c)) return c;
  return value.slice(0, 1);
}
