// rye's own paths (`{project_path}`, `{tool_dir}`, `{tool_path}`, `{anchor_path}`, `{user_space}`…)
// are not the chain author's text: they come from the file system where the run happens, a folder
// that a checkout, a pull request, `--project` or `$HOME` names. A folder named
// `w'));__import__('os').system(…);print(('` is code once spliced into `python3 -c "…'{project_path}'…"`.
// So a value spliced into a larger argument is checked by its CONTENT whatever its origin: the
// caller's and the environment's must be inert (inert.ts); any other value the chain did not write
// as constant text (rye's paths, a chain key built from them) must be PATH-SAFE: ASCII letters,
// digits and `_ . / + -`, not starting with `-`. None of these ends a quoted string or a word in the
// languages a spliced program is written in; a space, a quote or `;` in a path is refused, and the
// path then goes to the program as a whole argument (sys.argv), as the original's runtimes pass it.

/** ASCII letters, digits, `_ . / + -`; not starting with `-`; at most 4096 characters. */
export const PATH_SAFE_VALUE = /^(?!-)[A-Za-z0-9_./+-]{0,4096}$/;

/** The path-safe set, as the docs and messages state it. */
export const PATH_SAFE_DESCRIPTION = "ASCII letters, digits and _ . / + - only, not starting with -, at most 4096 characters";

/** Whether `value` is path-safe. */
export const isPathSafe = (value: string): boolean => PATH_SAFE_VALUE.test(value);

/**
 * Why `value`, a path rye spliced for `placeholder` into `where`, is refused, or null when it is
 * path-safe. The message names the placeholder and says how to pass it as a whole argument.
 */
export function pathValueProblem(placeholder: string, value: string, where: string): string | null {
  if (isPathSafe(value)) return null;
  const outside = /[^A-Za-z0-9_./+-]/u.exec(value)?.[0];
  const bad = value.startsWith("-") ? `starts with "-"` : outside === undefined ? `is ${value.length} characters long` : `holds ${JSON.stringify(outside)}`;
  return (
    `the value of ${placeholder} (${JSON.stringify(value)}) ${bad}; it is spliced into ${where}, where rye accepts only path-safe values (${PATH_SAFE_DESCRIPTION}). ` +
    `Make ${placeholder} a whole argument of its own (e.g. args: [..., "${placeholder}"]) and read it there (sys.argv, process.argv, "$1"), or move the project to a folder whose path is path-safe`
  );
}

/**
 * Whether an argument template is one path built from placeholders and literal path-safe text
 * (`{anchor_path}/Gemfile`, `{system_space}/tools/x.py`): the argument is then a single path, as a
 * whole-argument placeholder is, and its reader gets it as one argv element.
 */
export function isPathArgument(template: string, placeholders: readonly { start: number; end: number }[]): boolean {
  let literal = "";
  let last = 0;
  for (const p of placeholders) {
    literal += template.slice(last, p.start);
    last = p.end;
  }
  literal += template.slice(last);
  return placeholders.length > 0 && /^[A-Za-z0-9_./+-]*$/.test(literal) && !template.startsWith("-");
}
