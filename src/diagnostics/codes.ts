import type { Diagnostic, Location } from "./diagnostic.js";
import { didYouMean, didYouMeanId, suggest } from "../runtime/did-you-mean.js";

// Stable diagnostic codes. Numbering by phase: RYE1xxx reading and parsing, RYE2xxx directive
// checks. Every code has a fixture under test/fixtures/diagnostics/ and a row in the README.
// Call sites use these functions so messages are written once.

const error = (code: string, message: string, loc?: Location): Diagnostic => ({ code, severity: "error", message, loc });
const warning = (code: string, message: string, loc?: Location): Diagnostic => ({ code, severity: "warning", message, loc });
const info = (code: string, message: string, loc?: Location): Diagnostic => ({ code, severity: "info", message, loc });

/** Every code with its default severity and a one-line summary (README table, fixture coverage test). */
export const CODES = {
  RYE1001: ["error", "no ```xml metadata fence (or ```yaml for knowledge) where the original requires one"],
  RYE1002: ["error", "the metadata fence holds XML that is not well-formed"],
  RYE1003: ["error", "the file cannot be read as UTF-8 text"],
  RYE1004: ["error", "two files give one item id (same path, different extensions)"],
  RYE2001: ["error", "`{input:x}` names an input the directive does not declare"],
  RYE2002: ["warning", "a declared input is never used by any placeholder"],
  RYE2003: ["warning", "`{input:x?}` or `{input:x:default}` on a required input: the fallback can never apply"],
  RYE2004: ["error", "an input's `default` does not fit its `type`"],
  RYE2005: ["error", "two inputs share a name"],
  RYE2006: ["error", "an input name that no `{input:…}` placeholder can reference"],
  RYE2007: ["warning", "a placeholder in a field the original never interpolates, such as `<description>`"],
  RYE2008: ["error", "an unknown tag inside `<permissions>`"],
  RYE2009: ["warning", "an input `type` outside string, integer, number, boolean, object, array"],
  RYE2010: ["info", "`${inputs.x}` or `{env:VAR}`: supported extensions, not among the four placeholder kinds"],
  RYE2011: ["warning", "text that looks like a placeholder but that no pass will ever match"],
  RYE2012: ["warning", "a placeholder of another templating system, which never runs in a directive body"],
  RYE2013: ["warning", "the directive's `name` differs from its file name"],
  RYE2014: ["warning", "`${inputs.x}` names no declared input, so it always reaches the prompt literally"],
  RYE3001: ["error", "a knowledge item uses `---` frontmatter, which the original rejects"],
  RYE3002: ["error", "the metadata fence holds YAML that does not parse"],
  RYE3003: ["error", "a directive's extends chain is circular"],
  RYE3004: ["error", "a directive extends a directive that does not exist in any space"],
  RYE3005: ["error", "a `<context>` entry or context hook names a knowledge item that does not exist in any space"],
  RYE3006: ["warning", "a `<suppress>` entry matches nothing in the extends chain or the context hooks"],
  RYE3007: ["error", "a hook template uses a namespace the hook context does not have, or `{input:x}` where there are no inputs"],
  RYE3008: ["warning", "the built-in DirectiveInstruction hook's knowledge item `rye/agent/core/DirectiveInstruction` is in no space"],
  RYE3009: ["error", "a hook condition's `op: regex` pattern that is no JavaScript pattern, or that a linear-time matcher cannot run (backreferences, lookaround, over 1000 states)"],
  RYE5001: ["warning", "a signed source item changed since it was signed (an error with `--verify-sources`)"],
  RYE5002: ["error", "`--verify-sources`: a source item carries no signature"],
  RYE5003: ["error", "`--verify-sources`: a source item is signed by a key no space trusts"],
  RYE5004: ["error", "`--verify-sources`: a source item's Ed25519 signature does not verify"],
  RYE6001: ["warning", "a backtick call such as `rye_execute(…)` that does not parse"],
  RYE7001: ["error", "a DR-007 placeholder used outside the scopes where it is defined (e.g. `{model}` in a role)"],
  RYE7002: ["error", "an agent command template that cannot be split into arguments"],
  RYE7003: ["warning", "an agent command that does not run `{bin}`"],
  RYE7004: ["error", "an agent configuration file that is not valid TOML, or an agent entry of the wrong shape"],
  RYE7005: ["warning", "an agent command that places `{prompt}` or `{role}` as a bare positional argument"],
  RYE6002: ["warning", "a call names an item that is not found in any space"],
  RYE6003: ["error", "a call to a directive omits one of its required inputs"],
  RYE6004: ["error", "a call passes a parameter the called directive does not declare"],
  RYE6005: ["warning", "a call needs a capability the calling directive's permissions do not grant"],
  RYE6006: ["error", "a call to a tool omits a parameter its CONFIG_SCHEMA requires"],
  RYE6007: ["warning", "a call to a tool passes a parameter its CONFIG_SCHEMA does not declare"],
  RYE4001: ["error", "a tool chain names an executor that is not found in any space it may use"],
  RYE4002: ["error", "a tool chain is circular"],
  RYE4003: ["error", "a tool chain is longer than 10 elements"],
  RYE4004: ["error", "a tool file whose metadata cannot be read (Python syntax error, invalid YAML)"],
  RYE4005: ["warning", "tool metadata the original ignores (a non-literal value, an extension with no metadata parser)"],
  RYE4006: ["error", "`{input:x}` or `${state.x}` in a tool's config or env_config, where only `${VAR}` and `{param}` run"],
  RYE4007: ["error", "`config.args` uses a `{param}` that is neither a declared tool parameter, a config key nor a path variable"],
  RYE4008: ["warning", "a lower-case `${var}` in a tool's config or env_config, which environment expansion (`${VAR}`) never matches"],
  RYE4009: ["error", "a signed chain element whose content changed after it was signed"],
  RYE4010: ["warning", "a tool chain ends at a primitive the executor cannot run"],
  RYE4011: ["warning", "a shell's `-c` script assembled by substituting `${VAR}` or `{param}` values into its text"],
  RYE4012: ["error", "a value placed where rye cannot prove the program reads it as data (a shell script position, a launcher's own argument, the stdin of a program that reads stdin as code…)"],
  RYE4013: ["warning", "a value spliced into a program rye cannot see into (`python -c`, `node -e`, awk…): only inert values are accepted"],
  RYE1005: ["error", "a file larger than the size limit (RYE_MAX_FILE_SIZE, default 1 MiB)"],
  RYE1006: ["error", "metadata XML nested deeper than the compiler's limit of 256 elements"],
  RYE1007: ["error", "an extends chain longer than the compiler's limit of 64 directives"],
  RYE1008: ["error", "a backtick call whose arguments nest dicts and lists deeper than the compiler's limit of 128 levels"],
  RYE1009: ["error", "YAML (knowledge metadata, a hook configuration) nested deeper than the compiler's limit of 128 levels"],
  RYE1010: ["error", "an internal compiler error while compiling an item (a stack overflow, an exception): the build fails and writes nothing"],
  RYE8001: ["error", "a symlink that points outside the project, or that cannot be followed (dangling, a loop)"],
  RYE8002: ["error", "a file or directory of the project that cannot be read (permissions, I/O error), or a source that changed while a parallel build read it"],
  RYE8003: ["error", "a file name that gives no usable item id (`.` or `..` segments, backslashes, control characters, line terminators, `%`, `?`, `#`)"],
  RYE8004: ["error", "a directory named like an item file (e.g. `greet.md/`)"],
  RYE8005: ["error", "the output directory is refused (the file system root, a folder holding the project, a file, a symlink, a folder holding files no build recorded as its own) or locked by a build that does not finish"],
  RYE8006: ["error", "writing the output failed (no space left, permission denied, read-only file system, I/O error); the previous output is unchanged"],
  RYE9001: ["error", "rye.config.json (or \"rye\" in package.json) holds a key rye does not know"],
  RYE9002: ["error", "rye.config.json (or \"rye\" in package.json) is not valid JSON, or a setting has the wrong type"],
  RYE9101: ["error", "a test file (`.ai/tests/…/<id>.test.yaml`) that is not valid YAML or not of the test file's shape"],
  RYE9102: ["error", "a test file for an item that is not in the project"],
  RYE9103: ["error", "a test case passes an input the item does not declare"],
  RYE9104: ["error", "a test case omits a required input without expecting the refusal"],
  RYE9105: ["error", "a test expectation that can never be checked (an unknown field, an empty `contains`, a case with nothing to check)"],
  RYE2015: ["warning", "an element or attribute of the XML metadata that the original never reads (an error when it hides inputs the body uses)"],
  RYE2016: ["warning", "an attribute value the original reads as false, such as `required=\"yes\"`"],
  RYE2017: ["warning", "a placeholder kind one edit away from a real one, such as `{inptu:name}`: it reaches the prompt literally"],
  RYE6008: ["warning", "a literal call parameter whose type contradicts the called tool's CONFIG_SCHEMA"],
  RYE6009: ["error", "a literal call parameter whose type contradicts the called directive's input `type`, which the directive refuses when called"],
  RYE1011: ["warning", "a file under directives/, knowledge/ or tools/ of no kind rye reads (e.g. a `.txt` knowledge item or a `.rb` tool): it is not read"],
  RYE1012: ["info", "a file or folder skipped by a documented rule (helper tools without metadata, `.sh`/`.json`/`.toml` support files, hidden files, `node_modules/`, `__pycache__/`)"],
} as const satisfies Record<string, readonly [Diagnostic["severity"], string]>;

export type Code = keyof typeof CODES;

export const noMetadataFence = (loc: Location, lang: "xml" | "yaml", hint?: string) =>
  error("RYE1001", `No \`\`\`${lang} metadata fence found: the file needs one fenced \`\`\`${lang} block holding its metadata${hint ? ` (${hint})` : ""}`, loc);

export const invalidXml = (loc: Location, detail: string) =>
  error("RYE1002", `Invalid XML in the metadata fence: ${detail}`, loc);

/** A mismatched end tag: the element left open is named, with where it opened, as that is where the fix goes. */
export const unclosedTag = (loc: Location, open: { name: string; line: number; column: number; closedBy: string }) =>
  error(
    "RYE1002",
    `Invalid XML in the metadata fence: mismatched tag: <${open.name}> (opened at line ${open.line}, column ${open.column}) is never closed, so </${open.closedBy}> does not match it. Add </${open.name}> where the content of <${open.name}> ends.`,
    loc,
  );

export const unreadableFile = (loc: Location, detail: string) => error("RYE1003", `Cannot read file: ${detail}`, loc);

/** `optional`: the reference gives a fallback (`{input:x?}`, `{input:x:default}`), so the input it wants is optional. */
export const undeclaredInput = (loc: Location, name: string, suggestion: string | undefined, optional = false) =>
  error(
    "RYE2001",
    `Input '${name}' is not declared in <inputs>.` +
      (suggestion ? ` Did you mean '${suggestion}'?` : ` Declare it with <input name="${name}" type="string" required="${!optional}">.`),
    loc,
  );

export const unusedInput = (loc: Location, name: string) =>
  warning("RYE2002", `Input '${name}' is declared but no placeholder uses it.`, loc);

export const fallbackOnRequired = (loc: Location, name: string, raw: string) =>
  warning("RYE2003", `'${raw}' gives a fallback for '${name}', but '${name}' is required, so the fallback never applies.`, loc);

export const defaultTypeMismatch = (loc: Location, name: string, type: string, value: string) =>
  error("RYE2004", `Default '${value}' of input '${name}' is not a valid ${type}.`, loc);

export const duplicateInput = (loc: Location, name: string) =>
  error("RYE2005", `Input '${name}' is declared more than once.`, loc);

export const invalidInputName = (loc: Location, name: string) =>
  error(
    "RYE2006",
    name === ""
      ? "Input has no name: add a name attribute made of letters, digits and '_'."
      : `Input name '${name}' cannot be referenced: {input:…} names are letters, digits and '_' only.`,
    loc,
  );

export const uninterpolatedPlaceholder = (loc: Location, raw: string, field: string) =>
  warning("RYE2007", `'${raw}' in ${field} is never interpolated: it reaches the prompt literally.`, loc);

const PERMISSION_TAGS = ["acknowledge", "execute", "fetch", "load", "search", "sign"];

export const unknownPermissionTag = (loc: Location, tag: string) => {
  const near = didYouMean(tag, PERMISSION_TAGS);
  return error("RYE2008", `Unknown tag <${tag}> inside <permissions>.${near ? ` Did you mean <${near}>?` : ""} Valid tags: ${PERMISSION_TAGS.join(", ")}.`, loc);
};

const INPUT_TYPES = ["string", "integer", "number", "boolean", "object", "array"];

export const unknownInputType = (loc: Location, name: string, type: string) =>
  warning(
    "RYE2009",
    `Input '${name}' has type '${type}'; known types are ${INPUT_TYPES.join(", ")}.${suggest(didYouMean(type, INPUT_TYPES))} Its TypeScript type is 'unknown'.`,
    loc,
  );

export const extensionPlaceholder = (loc: Location, raw: string) =>
  info("RYE2010", `'${raw}' uses an extension beyond the four templating systems; it is supported.`, loc);

export const unmatchablePlaceholder = (loc: Location, raw: string, hint: string) =>
  warning("RYE2011", `'${raw}' looks like a placeholder but is never replaced: ${hint}.`, loc);

export const foreignPlaceholder = (loc: Location, raw: string, system: string, fix: string) =>
  warning("RYE2012", `'${raw}' is ${system}, which never runs in a directive body. ${fix}`, loc);

export const nameMismatch = (loc: Location, name: string, stem: string) =>
  warning("RYE2013", `Directive name '${name}' differs from its file name '${stem}'.`, loc);

export const undeclaredDollarInput = (loc: Location, raw: string) =>
  warning(
    "RYE2014",
    `'${raw}' names no declared input, so it is never substituted and reaches the prompt literally. Declare the input if it should be.`,
    loc,
  );

export const dashesFrontmatter = (loc: Location) =>
  error("RYE3001", "Found --- YAML frontmatter (unsupported). Use a ```yaml fenced code block for metadata instead.", loc);

// The YAML parser counts lines from the fence; the location already says where in the file.
export const invalidYaml = (loc: Location, detail: string) =>
  error("RYE3002", `Invalid YAML in the metadata fence: ${detail.replace(/ at line \d+, column \d+(?=:?\s*$)/, "").replace(/:\s*$/, "")}`, loc);

export const circularExtends = (loc: Location, id: string, chain: readonly string[]) =>
  error("RYE3003", `Circular extends chain: ${id} (chain: ${chain.join(" → ")})`, loc);

const lookingFor = (diag: Diagnostic, lookup: NonNullable<Diagnostic["lookup"]>): Diagnostic => ({ ...diag, lookup });

export const missingParent = (loc: Location, parent: string, chain: readonly string[]) =>
  lookingFor(error("RYE3004", `Directive '${parent}' (extends) was not found in the project, user or system space.`, loc), { kinds: ["directive"], id: parent, exclude: [...chain] });

export const missingKnowledge = (loc: Location, id: string, position: string) =>
  lookingFor(error("RYE3005", `Knowledge item '${id}' (${position}) was not found in the project, user or system space.`, loc), { kinds: ["knowledge"], id });

export const unusedSuppress = (loc: Location, id: string) =>
  warning("RYE3006", `<suppress>${id}</suppress> matches no context item or hook of this directive's chain (suppression matches exact ids only).`, loc);

export const missingInstructionKnowledge = (id: string) =>
  warning(
    "RYE3008",
    `No space holds knowledge item '${id}', which the built-in DirectiveInstruction hook injects before every directive's prompt, so threads get no instruction (an empty system message). Add .ai/knowledge/${id}.md to the project or user space, pass the system space that holds it with --system, or define your own hooks in .ai/config/agent/hook_conditions.yaml.`,
  );

export const badHookTemplate = (loc: Location, raw: string, fix: string) => error("RYE3007", `'${raw}' cannot resolve in a hook: ${fix}`, loc);

export const unsafeHookRegex = (loc: Location, pattern: string, why: string) =>
  error("RYE3009", `The hook condition's regex '${pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern}' is refused: ${why}. Hook regexes are matched in time linear in the input; write the condition without that construct (or with op: contains / eq).`, loc);

export const unparsedCall = (loc: Location, name: string) =>
  warning("RYE6001", `This ${name}(…) call does not parse as Python literal arguments, so it cannot be checked.`, loc);

export const callTargetNotFound = (loc: Location, kind: string, id: string, kinds: ("directive" | "knowledge" | "tool")[], self: string | null) =>
  lookingFor(warning("RYE6002", `${kind} '${id}' is not found in the project, user or system space.`, loc), { kinds, id, ...(self ? { exclude: [self] } : {}) });

/** Completes every not-found diagnostic with the nearest id the build holds, and drops what it was looked up by. */
export function suggestIds(diagnostics: readonly Diagnostic[], ids: (kind: "directive" | "knowledge" | "tool") => Iterable<string>): Diagnostic[] {
  return diagnostics.map((diag) => {
    if (!diag.lookup) return diag;
    const { lookup, ...rest } = diag;
    const exclude = new Set(lookup.exclude ?? []);
    const near = didYouMeanId(lookup.id, lookup.kinds.flatMap((k) => [...ids(k)]).filter((c) => !exclude.has(c)));
    return { ...rest, message: rest.message + suggest(near) };
  });
}

export const callMissingInput = (loc: Location, id: string, names: readonly string[]) =>
  error("RYE6003", `Call to directive '${id}' is missing required inputs: ${names.join(", ")}.`, loc);

export const callUnknownInput = (loc: Location, id: string, name: string, valid: readonly string[]) =>
  error("RYE6004", `Call to directive '${id}' passes unknown parameter '${name}'.${suggest(didYouMean(name, valid))} Valid inputs: ${valid.join(", ")}.`, loc);

export const toolCallMissingParam = (loc: Location, id: string, names: readonly string[]) =>
  error("RYE6006", `Call to tool '${id}' is missing required parameters: ${names.join(", ")} (its CONFIG_SCHEMA requires them).`, loc);

export const toolCallUnknownParam = (loc: Location, id: string, name: string, declared: readonly string[]) =>
  warning(
    "RYE6007",
    `Call to tool '${id}' passes '${name}', which its CONFIG_SCHEMA does not declare.${suggest(didYouMean(name, declared))}` +
      (declared.length > 0 ? ` Declared parameters: ${declared.join(", ")}.` : " It declares no parameters."),
    loc,
  );

export const callNotPermitted = (loc: Location, capability: string) =>
  warning("RYE6005", `This call needs '${capability}', which the directive's <permissions> do not grant.`, loc);

export const placeholderOutOfScope = (loc: Location, message: string) => error("RYE7001", message, loc);

export const badCommandTemplate = (loc: Location, message: string) => error("RYE7002", `Agent command: ${message}.`, loc);

export const commandWithoutBin = (loc: Location, message: string) => warning("RYE7003", `Agent command: ${message}.`, loc);

export const invalidToml = (loc: Location, detail: string) => error("RYE7004", `Invalid TOML: ${detail}`, loc);

export const invalidAgentEntry = (loc: Location, detail: string) => error("RYE7004", `Invalid agent entry: ${detail}`, loc);

export const barePositionalPlaceholder = (loc: Location, message: string) => warning("RYE7005", `Agent command: ${message}.`, loc);

export const invalidHookYaml = (loc: Location, detail: string) => error("RYE3002", `Invalid YAML in the hook configuration: ${detail}`, loc);

export const duplicateItemId = (loc: Location, id: string, kind: string, chosen: string) =>
  error("RYE1004", `This file and '${chosen}' are both ${kind} '${id}'; extensions are probed in one fixed order, so '${chosen}' wins. Rename or remove one.`, loc);

export const staleSignature = (loc: Location, message: string, strict: boolean) =>
  (strict ? error : warning)("RYE5001", message, loc);

export const unsignedSource = (loc: Location, message: string) => error("RYE5002", message, loc);

export const untrustedSource = (loc: Location, message: string) => error("RYE5003", message, loc);

export const badSourceSignature = (loc: Location, message: string) => error("RYE5004", message, loc);
export const executorNotFound = (loc: Location, executor: string, tool: string, near?: string) =>
  error("RYE4001", `Executor not found: '${executor}' (in the chain of tool '${tool}') is in no space this element may use (project → user → system; user → system; system → system).${near ? ` Did you mean '${near}'?` : " Add it, or fix the executor id."}`, loc);

export const circularChain = (loc: Location, chain: readonly string[]) =>
  error("RYE4002", `Circular tool chain: ${chain.join(" → ")}. A chain must end at a primitive (an element without an executor id).`, loc);

export const chainTooDeep = (loc: Location, tool: string, max: number) =>
  error("RYE4003", `Tool chain of '${tool}' is longer than ${max} elements; the original refuses it. Point an executor id nearer the primitive.`, loc);

export const unreadableToolMetadata = (loc: Location, detail: string) => error("RYE4004", detail, loc);

export const ignoredToolMetadata = (loc: Location, detail: string) => warning("RYE4005", detail, loc);

export const foreignPlaceholderInTool = (loc: Location, raw: string, fix: string) =>
  error("RYE4006", `'${raw}' never resolves in a tool's config: only \${VAR} (environment) and {param} (runtime parameters) run there, so it would reach the command literally. ${fix}`, loc);

export const unknownRuntimeParam = (loc: Location, raw: string, tool: string, known: readonly string[]) =>
  error("RYE4007", `'${raw}' in config.args is no parameter of tool '${tool}', config key or path variable, so it would reach the command literally. Declare it in the tool's CONFIG_SCHEMA properties or use one of: ${known.join(", ")}.`, loc);

export const lowerCaseEnvVar = (loc: Location, raw: string, name: string) =>
  warning("RYE4008", `'${raw}' is never expanded: \${VAR} matches upper-case names only. Write '\${${name.toUpperCase()}}' for an environment variable, or '{${name}}' for a runtime parameter.`, loc);

export const modifiedSignedTool = (loc: Location, id: string) =>
  error("RYE4009", `Chain element '${id}' is signed but its content changed after signing; the original refuses to run it. Re-sign it (rye sign tool:${id}) or restore it.`, loc);

export const unrunnablePrimitive = (loc: Location, tool: string, primitive: string, runnable: readonly string[]) =>
  warning("RYE4010", `The chain of '${tool}' ends at '${primitive}', which this executor cannot run (it runs ${runnable.join(", ")}); execute() will report an error.`, loc);
export const shellScriptBySubstitution = (loc: Location, shell: string, placeholders: readonly string[]) =>
  warning("RYE4011", `The ${shell} -c script is assembled by substituting ${placeholders.join(", ")} into its text. rye passes each value to the shell as a positional parameter, never as script text; to say so in the config, pass the values as arguments after the script and read them as "$1", "$2" (args: ["-c", 'printf "%s" "$1"', "${shell}", "{name}"]).`, loc);
export const unprovenShellContext = (loc: Location, message: string) =>
  error("RYE4012", `${message.charAt(0).toUpperCase()}${message.slice(1)}. A caller's or the environment's value goes only where rye proves the program reading it takes it as data (docs/security-model.md, class 1).`, loc);
export const inertOnlySplice = (loc: Location, placeholder: string, where: string) =>
  warning("RYE4013", `${placeholder} is spliced into ${where}, where rye cannot prove how its value is read; at run time only inert values (ASCII letters, digits and _ only) are accepted and others are refused. To pass any value, make ${placeholder} a whole argument of its own and read it there (sys.argv, process.argv, "$1"), or pass it on stdin.`, loc);
export const fileTooLarge = (loc: Location, bytes: number, limit: number) =>
  error("RYE1005", `File is ${bytes} bytes, over the limit of ${limit} bytes; raise it with RYE_MAX_FILE_SIZE=<bytes> if this file is meant to be this large.`, loc);

export const xmlTooDeep = (loc: Location, detail: string) =>
  error("RYE1006", `Metadata too deep: ${detail}; flatten the XML.`, loc);

export const callTooDeep = (loc: Location, name: string, limit: number) =>
  error("RYE1008", `The arguments of this ${name}(…) call nest dicts and lists deeper than ${limit} levels; flatten them.`, loc);

export const yamlTooDeep = (loc: Location, limit: number) =>
  error("RYE1009", `YAML nested deeper than ${limit} levels starts here; flatten it.`, loc);

export const internalError = (loc: Location, detail: string) =>
  error("RYE1010", `Internal compiler error while compiling this item (${detail}); nothing was written. Please report it with this file.`, loc);

export const badSymlink = (loc: Location, detail: string) => error("RYE8001", `Symlink not followed: ${detail}.`, loc);

export const unreadablePath = (loc: Location, detail: string) => error("RYE8002", `Cannot read: ${detail}.`, loc);

// The id is shown with its control characters and line terminators escaped: they are why it is refused.
// eslint-disable-next-line no-control-regex
const visible = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

export const badItemId = (loc: Location, id: string) =>
  error("RYE8003", `The file name gives item id '${visible(id)}', which is not usable: ids are '/'-separated names without empty, '.' or '..' parts, backslashes, control characters, line terminators (U+2028, U+2029) or '%', '?', '#' (an import reads them as URL syntax). Rename the file or folder.`, loc);

export const directoryLikeItem = (loc: Location, name: string) =>
  error("RYE8004", `'${name}' is a directory, but its name ends like an item file; rename it (the original cannot read it either).`, loc);

/** Longest extends chain compiled (RYE1007); real chains are a few directives long. */
export const MAX_EXTENDS_DEPTH = 64;

export const extendsTooDeep = (loc: Location, length: number) =>
  error("RYE1007", `The extends chain starting here is longer than ${MAX_EXTENDS_DEPTH} directives (stopped after ${length}); shorten it.`, loc);

export const cannotWriteOutput = (loc: Location, reason: string) =>
  error("RYE8005", `Cannot write the output: ${reason}. Nothing was written.`, loc);

export const outputWriteFailed = (loc: Location, reason: string) =>
  error("RYE8006", `Writing the output failed: ${reason}.${reason.includes("partly updated") ? "" : " The previous output is unchanged."}`, loc);

export const unknownConfigKey = (loc: Location, name: string, suggestion?: string) =>
  error("RYE9001", `Unknown setting '${name}'${suggestion ? `: did you mean '${suggestion}'?` : "."} The settings are listed in the config file's JSON Schema (schema/rye.config.schema.json).`, loc);

export const invalidConfig = (loc: Location, detail: string) => error("RYE9002", `Invalid configuration: ${detail}.`, loc);

/** `hides`: inputs the body uses that the misplaced or misspelt markup keeps from being declared; `misread`: read as another field. Either makes it an error. */
export const unreadMarkup = (loc: Location, what: string, why: string, hides: readonly string[] = [], misread = false) =>
  (hides.length > 0 || misread ? error : warning)(
    "RYE2015",
    `${what} is never read: ${why}` + (hides.length > 0 ? ` So ${hides.map((h) => `'${h}'`).join(", ")} ${hides.length === 1 ? "is" : "are"} not declared, although the body uses ${hides.length === 1 ? "it" : "them"}.` : ""),
    loc,
  );

export const readAsFalse = (loc: Location, attribute: string, value: string) =>
  warning("RYE2016", `${attribute}="${value}" is read as false: only "true" (in any case) is true. Write ${attribute}="true" or ${attribute}="false".`, loc);

export const misspeltPlaceholderKind = (loc: Location, raw: string, fixed: string) =>
  warning("RYE2017", `'${raw}' is no placeholder, so it reaches the prompt literally. Did you mean '${fixed}'?`, loc);

export const callParamWrongType = (loc: Location, id: string, name: string, expected: string, given: string) =>
  warning("RYE6008", `Parameter '${name}' of tool '${id}' is declared as ${expected} in its CONFIG_SCHEMA, but this call passes ${given}.`, loc);

export const directiveCallParamWrongType = (loc: Location, id: string, name: string, expected: string, given: string) =>
  error("RYE6009", `Input '${name}' of directive '${id}' is declared as ${expected}, but this call passes ${given}, which the directive refuses when called.`, loc);

export const badTestFile = (loc: Location, detail: string, suggestion?: string) =>
  error("RYE9101", `Test file: ${detail}.${suggest(suggestion)}`, loc);

export const testedItemNotFound = (loc: Location, kind: string, id: string, suggestion?: string) =>
  error("RYE9102", `This test file is for ${kind} '${id}', which is not in the project.${suggest(suggestion)} A test file's path under .ai/tests/ names its item: .ai/tests/${kind === "knowledge" ? kind : `${kind}s`}/<id>.test.yaml.`, loc);

export const undeclaredTestInput = (loc: Location, id: string, name: string, declared: readonly string[], suggestion?: string) =>
  error("RYE9103", `'${id}' declares no input '${name}'.${suggest(suggestion)} ${declared.length > 0 ? `Declared inputs: ${declared.join(", ")}.` : "It declares no inputs."} To test the refusal, list it under refuses: unknown.`, loc);

export const omittedTestInput = (loc: Location, id: string, names: readonly string[]) =>
  error("RYE9104", `This case omits the required input${names.length === 1 ? "" : "s"} ${names.map((n) => `'${n}'`).join(", ")} of '${id}', so it can only be refused. Give ${names.length === 1 ? "it" : "them"} under inputs, or expect the refusal: refuses: { missing: [${names.join(", ")}] }.`, loc);

export const uncheckableExpectation = (loc: Location, detail: string, suggestion?: string) =>
  error("RYE9105", `This expectation can never be checked: ${detail}.${suggest(suggestion)}`, loc);

export const unsupportedKind = (loc: Location, why: string) =>
  warning("RYE1011", `This file is not read: ${why}. Rename it to one of those kinds, or move it out of .ai/.`, loc);

export const skippedFile = (loc: Location, why: string) => info("RYE1012", `Skipped: ${why}.`, loc);
