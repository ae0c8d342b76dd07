import type { Location } from "../diagnostics/diagnostic.js";
import type { DirectiveMetadata } from "../runtime/directive.js";
import type { PyFloat } from "../runtime/py-value.js";

/** One `<input>` as the original parses it. `default` is present only when the attribute exists. */
export interface DeclaredInput {
  name: string;
  type: string;
  required: boolean;
  default?: string;
  description?: string;
}

export interface DeclaredOutput {
  name: string;
  type: string;
  required: boolean;
  description?: string;
}

export interface Action {
  primary: string;
  params?: Record<string, string>;
  [attr: string]: unknown;
}

export interface ContextSpec {
  system: string[];
  before: string[];
  after: string[];
  suppress: string[];
}

/**
 * The original parser's result dict (rye-reference.md §1.4), key for key. Optional keys are
 * absent exactly when the original leaves them out; other `<metadata>` children with text land
 * under their tag name, as in the original.
 */
export interface DirectiveData extends DirectiveMetadata {
  runtime?: Record<string, boolean | number | bigint | PyFloat | string>;
  permissions?: { tag: "cap"; content: string }[];
  context?: ContextSpec;
  inputs?: DeclaredInput[];
  outputs?: DeclaredOutput[];
  actions?: Action[];
  body: string;
  raw: string;
  content: string;
}

/** Where the parts the checker reports on were found in the `.md`. */
export interface DirectiveLocations {
  root: Location;
  inputs: { element: Location; name?: Location; type?: Location; default?: Location; text?: Location }[];
  /** Each `<output>`: its `name` attribute, or the element when it has none. */
  outputs: Location[];
  /** Elements and attributes whose text the original never interpolates (placeholders there stay literal). */
  uninterpolated: { field: string; text: string; loc: Location }[];
  unknownPermissionTags: { tag: string; loc: Location }[];
  permissions?: Location;
  extends?: Location;
  /** The value of the `<directive>`'s `name` attribute. */
  name?: Location;
  /** Each `<context>` entry: position, knowledge id and where it was written. */
  context: { position: string; id: string; loc: Location }[];
  hooks: Location[];
  /** Markup the original never reads and values it reads as false (RYE2015, RYE2016). */
  unread?: UnreadMarkup[];
}

/**
 * Markup the original never reads (`hidden`: names of the inputs it holds; `misread`: read as something
 * else, such as `<inputs>` inside `<metadata>` as an empty text field), or a `required` value it reads as false.
 */
export type UnreadMarkup =
  | { kind: "unread"; loc: Location; what: string; why: string; hidden: string[]; misread?: boolean }
  | { kind: "false"; loc: Location; attribute: string; value: string };
