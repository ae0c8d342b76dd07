import { argumentPositions, leadingPlaceholder } from "../runtime/agents/argument-positions.js";
import { PLACEHOLDER, inScope, scopesOf } from "../runtime/agents/scopes.js";
import type { ArgTemplate, CommandTemplate } from "../runtime/agents/launch-agent.js";

/** A problem in a command template, at an offset of the template string. */
export interface TemplateProblem {
  kind: "syntax" | "scope" | "no_bin" | "bare_positional";
  message: string;
  offset: number;
}

/**
 * Splits an agent command into argv at build time, the way a POSIX shell splits words
 * (whitespace, '…', "…", backslash) but with no expansion of any kind, and leading `NAME=value`
 * words as environment entries (decisions.md #21). A placeholder becomes part of exactly one
 * argument whatever its value, so no value can add arguments or run anything.
 */
export function parseCommandTemplate(command: string): { template: CommandTemplate | null; problems: TemplateProblem[] } {
  const problems: TemplateProblem[] = [];
  const words: { text: string; raw: string; start: number }[] = [];
  let i = 0;
  while (i < command.length) {
    while (i < command.length && /\s/.test(command[i]!)) i++;
    if (i >= command.length) break;
    const start = i;
    let text = "";
    while (i < command.length && !/\s/.test(command[i]!)) {
      const c = command[i]!;
      if (c === "'") {
        const end = command.indexOf("'", i + 1);
        if (end === -1) return { template: null, problems: [{ kind: "syntax", message: "unterminated single quote", offset: i }] };
        text += command.slice(i + 1, end);
        i = end + 1;
      } else if (c === '"') {
        let j = i + 1;
        while (j < command.length && command[j] !== '"') {
          if (command[j] === "\\" && j + 1 < command.length && '"\\$`'.includes(command[j + 1]!)) j++;
          text += command[j];
          j++;
        }
        if (j >= command.length) return { template: null, problems: [{ kind: "syntax", message: "unterminated double quote", offset: i }] };
        i = j + 1;
      } else if (c === "\\" && i + 1 < command.length) {
        text += command[i + 1];
        i += 2;
      } else {
        text += c;
        i++;
      }
    }
    words.push({ text, raw: command.slice(start, i), start });
  }
  const env: CommandTemplate["env"] = [];
  let w = 0;
  for (; w < words.length; w++) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(words[w]!.raw);
    if (!m) break;
    env.push([m[1]!, toParts(words[w]!.text.slice(m[1]!.length + 1))]);
  }
  const argv = words.slice(w).map((x) => toParts(x.text));
  if (argv.length === 0) problems.push({ kind: "syntax", message: "command template produced only environment variables, no command", offset: 0 });
  for (const m of command.matchAll(PLACEHOLDER)) {
    const name = m[1]!;
    const scopes = scopesOf(name);
    if (scopes && !inScope(name, "agent_command")) {
      problems.push({ kind: "scope", message: `{${name}} is not available in agent commands; it is valid in ${scopes.join(", ")}`, offset: m.index });
    }
  }
  const argvWords = words.slice(w);
  argumentPositions(argv).forEach((position, i) => {
    const ph = leadingPlaceholder(argv[i]!);
    if (position !== "positional" || (ph !== "prompt" && ph !== "role")) return;
    const offset = argvWords[i]!.start + Math.max(0, argvWords[i]!.raw.indexOf(`{${ph}}`));
    problems.push({
      kind: "bare_positional",
      message: `{${ph}} stands as a bare positional argument, so a value starting with '-' would be read as an option and is refused at run time; write it after an option that takes it (-p {${ph}}) or after --`,
      offset,
    });
  });
  if (!command.includes("{bin}")) problems.push({ kind: "no_bin", message: "agent commands should run {bin}, so the binary is named once, in `bin`", offset: 0 });
  return { template: { env, argv }, problems };
}

/** Literal text and agent-command placeholders of one word. */
function toParts(text: string): ArgTemplate {
  const parts: ArgTemplate = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (!inScope(m[1]!, "agent_command")) continue;
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push({ ph: m[1]! });
    last = m.index + m[0].length;
  }
  if (last < text.length || parts.length === 0) parts.push(text.slice(last));
  return parts;
}
