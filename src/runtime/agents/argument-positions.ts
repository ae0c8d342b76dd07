// Where each argument of an agent command stands, so a placeholder value can never become an option
// of the agent binary: a value may begin with `-` only after a literal `--` or as the value of a
// literal option written just before it (`--model {model}`, `-p {prompt}`).

/** One argument: literal strings and placeholders, concatenated. */
export type ArgTemplate = (string | { ph: string })[];

/** `positional`: a value starting with `-` here would be read as an option. */
export type ArgumentPosition = "command" | "after_double_dash" | "option_value" | "positional";

const literal = (parts: ArgTemplate): string | null => (parts.every((p) => typeof p === "string") ? parts.join("") : null);

/** The position of each argv word of a parsed command (argv[0] is the command). */
export function argumentPositions(argv: readonly ArgTemplate[]): ArgumentPosition[] {
  let dashes = false;
  return argv.map((word, i) => {
    if (i === 0) return "command";
    const previous = literal(argv[i - 1]!);
    const position: ArgumentPosition = dashes
      ? "after_double_dash"
      : previous !== null && i > 1 && /^-[^-=]|^--[^=]+$/.test(previous) && !previous.includes("=")
        ? "option_value"
        : "positional";
    if (literal(word) === "--") dashes = true;
    return position;
  });
}

/** The placeholder a word starts with, if it starts with one. */
export function leadingPlaceholder(word: ArgTemplate): string | null {
  const first = word[0];
  return first !== undefined && typeof first !== "string" ? first.ph : null;
}
