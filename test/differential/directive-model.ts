// Random directives and parameters for the differential test, kept as models (write-case.ts turns
// them into the markdown and JSON texts both sides read).
import fc from "fast-check";

/** A JSON value as written: kept as a model so int 1 and float 1.0 stay apart in the text. */
export type JsonModel =
  | { k: "str"; v: string }
  | { k: "int"; v: number }
  | { k: "float"; v: number }
  | { k: "bool"; v: boolean }
  | { k: "null" }
  | { k: "list"; v: JsonModel[] }
  | { k: "dict"; v: [string, JsonModel][] };

export interface InputDecl {
  name: string;
  /** The `type` attribute, or undefined to leave it out. */
  type?: string;
  /** The `required` attribute as written, or undefined to leave it out. */
  required?: string;
  default?: string;
  description?: string;
}

export interface DirectiveModel {
  description: string;
  inputs: InputDecl[];
  outputs: { name: string; type: string; required: boolean; description: string }[];
  permissions: boolean;
  actions: { itemId: string; params: { name: string; value: string; asAttribute: boolean }[] }[];
  /** Text of an opaque `<template>` section (read unparsed, so `<` and `&` may stand raw), if any. */
  template?: string;
  body: string;
  crlf: boolean;
}

export interface DiffCase {
  directive: DirectiveModel;
  /** Parameters in the order written; names may be undeclared. */
  params: [string, JsonModel][];
  /** Names whose value the generator made on purpose not to fit the declared type. */
  mismatched: string[];
  env: Record<string, string>;
}

// Word characters only (Python's `\w`), with names that are dangerous as JavaScript keys.
const NAMES = ["a", "b", "name", "topic", "x_1", "ünï", "日本", "count", "__proto__", "constructor", "toString", "then"];
const ENV_NAMES = ["HOME", "RYE_X", "ünï", "A_1"];
const TYPES = ["string", "integer", "number", "boolean", "object", "array"];

const SPICY = ["{", "}", "$", ":", "|", "?", "'", '"', "\\", "`", "é", "中", "😀", "\t", " ", "\n", "<", ">", "&", "%", "#", "\u00a0", "\u2028", "None", "True", "1.0", "[", "]", ",", "*"];
const spicy = (max: number) =>
  fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...SPICY) }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }, { weight: 2, arbitrary: fc.constantFrom("a", "word", "the ") }), { maxLength: max }).map((a) => a.join(""));

/** Text XML 1.0 can hold at all, in one line (attribute values are normalised by parsers otherwise). */
const xmlSafe = (s: string) => s.replace(/[\u0000-\u001f\ufffe\uffff]|[\ud800-\udfff]/g, " ");

// Excluded from generation, each a known difference being fixed in the Python-value code:
// PY-DICT-ORDER — a dict whose keys include integer-like strings ("2") renders in JavaScript's key
//   order, not insertion order; keys never look like array indexes here.
// PY-BIG-INT — integers beyond 2^53 lose digits; integers stay within Number.MAX_SAFE_INTEGER here.
// PY-WHOLE-FLOAT-METADATA — whole-number floats in metadata (`<limits spend="1.0"/>`) lose their
//   float-ness; no <limits> or other coerced metadata is generated (floats in parameters are kept).
const INTEGER_LIKE = /^(0|[1-9]\d*)$/;
const dictKey = fc.oneof(fc.constantFrom("k", "key", "__proto__", "constructor", "é", "a b", "", "-1", "01", "1.5", "None"), spicy(3)).filter((k) => !INTEGER_LIKE.test(k));

const floatValue = fc.oneof(
  { weight: 4, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 2, arbitrary: fc.integer({ min: -1000, max: 1000 }).map((n) => n + 0) },
  { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, -0, 1e16, 1e-5, 0.1, 123456789.125) },
);

const leaf: fc.Arbitrary<JsonModel> = fc.oneof(
  spicy(6).map((v) => ({ k: "str" as const, v })),
  fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger()).map((v) => ({ k: "int" as const, v })),
  floatValue.map((v) => ({ k: "float" as const, v })),
  fc.boolean().map((v) => ({ k: "bool" as const, v })),
  fc.constant({ k: "null" as const }),
);

export const jsonValue: fc.Arbitrary<JsonModel> = fc.letrec<{ value: JsonModel }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("value"), { maxLength: 4 }).map((v) => ({ k: "list" as const, v })),
    fc.array(fc.tuple(dictKey, tie("value")), { maxLength: 4 }).map((v) => ({ k: "dict" as const, v })),
  ),
})).value;

/** A value that fits a declared type, as the type checks of the validator read it. */
function fitting(type: string | undefined): fc.Arbitrary<JsonModel> {
  switch (type) {
    case "string":
    case undefined:
      return spicy(8).map((v) => ({ k: "str" as const, v }));
    case "integer":
      return fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger()).map((v) => ({ k: "int" as const, v }));
    case "number":
      return fc.oneof(fc.integer({ min: -1000, max: 1000 }).map((v) => ({ k: "int" as const, v })), floatValue.map((v) => ({ k: "float" as const, v })));
    case "boolean":
      return fc.boolean().map((v) => ({ k: "bool" as const, v }));
    case "object":
      return jsonValue.filter((v) => v.k === "dict");
    default:
      return jsonValue.filter((v) => v.k === "list");
  }
}

/** Whether a value fits a declared type (the validator's type checks, decisions #7). */
export function fits(type: string | undefined, v: JsonModel): boolean {
  switch (type ?? "string") {
    case "string":
      return v.k === "str";
    case "integer":
      return v.k === "int";
    case "number":
      return v.k === "int" || v.k === "float";
    case "boolean":
      return v.k === "bool";
    case "object":
      return v.k === "dict";
    case "array":
      return v.k === "list";
    default:
      return true;
  }
}

/** Default attributes that read as their type (a default that does not is a build error, RYE2004). */
const DEFAULTS: Record<string, fc.Arbitrary<string>> = {
  integer: fc.constantFrom("0", "7", "-3", " 12 ", "+4", "1_000"),
  number: fc.constantFrom("1.5", "2", "1e3", "-0.0", "10.0", "inf"),
  boolean: fc.constantFrom("true", "false", "True", "FALSE"),
  object: fc.constantFrom("{}", '{"k": 1}', '{"a": [1, 2.0], "b": null}'),
  array: fc.constantFrom("[]", "[1]", '["a", {"b": true}]'),
};

const inputDecl: fc.Arbitrary<InputDecl> = fc
  .record(
    {
      name: fc.constantFrom(...NAMES),
      type: fc.constantFrom(...TYPES),
      required: fc.constantFrom("true", "false", "True", "yes"),
      default: fc.boolean(),
      description: spicy(5).map((s) => xmlSafe(s)),
    },
    { requiredKeys: ["name", "default"] },
  )
  // PROTO-DEFAULT (excluded): an input named `__proto__` with a default is reported missing by
  // validate() (the default is assigned, which sets a prototype, instead of defined as a key).
  .chain(({ default: withDefault, ...i }) =>
    withDefault && i.name !== "__proto__" ? (DEFAULTS[i.type ?? "string"] ?? spicy(4).map(xmlSafe)).map((d) => ({ ...i, default: d })) : fc.constant(i),
  );

function placeholder(declared: readonly string[]): fc.Arbitrary<string> {
  // Declared names only: any `{input:x}` of an undeclared name is a build error (RYE2001).
  const fallback = spicy(3).map((s) => s.replace(/[}\n]/g, ""));
  const env = fc.constantFrom(...ENV_NAMES);
  const other = [
    env.map((v) => `{env:${v}}`),
    fc.tuple(env, fallback).map(([v, d]) => `{env:${v}:${d}}`),
    fc.constantFrom("{input:}", "{ input:a}", "${inputs.}", "{env:}", "{{", "}}", "${inputs.a-b}", "{input:a b}"),
  ];
  if (declared.length === 0) return fc.oneof(...other);
  const name = fc.constantFrom(...declared);
  return fc.oneof(
    name.map((n) => `{input:${n}}`),
    name.map((n) => `{input:${n}?}`),
    fc.tuple(name, fallback).map(([n, d]) => `{input:${n}:${d}}`),
    fc.tuple(name, fallback).map(([n, d]) => `{input:${n}|${d}}`),
    name.map((n) => `\${inputs.${n}}`),
    ...other,
  );
}

const text = (declared: readonly string[], max: number) =>
  fc.array(fc.oneof({ weight: 2, arbitrary: spicy(6) }, { weight: 3, arbitrary: placeholder(declared) }), { maxLength: max }).map((a) => a.join(""));

export const diffCase: fc.Arbitrary<DiffCase> = fc
  .uniqueArray(inputDecl, { selector: (i) => i.name, maxLength: 4 })
  .chain((inputs) => {
    const names = inputs.map((i) => i.name);
    const given = inputs.map((i) =>
      fc.tuple(fc.constant(i), fc.integer({ min: 0, max: 19 }), fitting(i.type), jsonValue).map(([decl, roll, good, any]) => {
        if (roll === 0 || (roll === 1 && decl.required !== "true")) return undefined; // absent
        return [decl.name, roll === 2 && decl.type !== undefined ? any : good] as [string, JsonModel];
      }),
    );
    const outputs = fc.array(
      fc.record({ name: fc.constantFrom("result", "summary", "é", "n"), type: fc.constantFrom("string", "integer"), required: fc.boolean(), description: spicy(4).map(xmlSafe) }),
      { maxLength: 2 },
    );
    const action = fc.record({
      itemId: fc.constantFrom("x/y", "rye/file-system/read", "team/tool"),
      params: fc.array(fc.record({ name: fc.constantFrom("p", "path", "q"), value: text(names, 3).map(xmlSafe), asAttribute: fc.boolean() }), { maxLength: 2 }),
    });
    return fc.record({
      directive: fc.record({
        description: text(names, 2).map(xmlSafe),
        inputs: fc.constant(inputs),
        outputs,
        permissions: fc.boolean(),
        actions: fc.array(action, { maxLength: 2 }),
        template: fc.option(text(names, 4).map((t) => xmlSafe(t).replace(/<\/?template/g, "")), { nil: undefined }),
        body: text(names, 12),
        crlf: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
      }),
      params: fc.tuple(fc.tuple(...given), fc.integer({ min: 0, max: 5 }), fc.tuple(fc.constantFrom("zz", "extra", ...NAMES), jsonValue)).map(([g, roll, extra]) => {
        const list = g.filter((x): x is [string, JsonModel] => x !== undefined);
        // Now and then a parameter no input declares (or one given twice: the first stays).
        if (roll === 0 && !list.some(([k]) => k === extra[0])) list.push(extra);
        return list;
      }),
      mismatched: fc.constant([] as string[]),
      env: fc.dictionary(fc.constantFrom(...ENV_NAMES), spicy(3)),
    });
  })
  .map((c) => ({ ...c, mismatched: c.params.filter(([k, v]) => c.directive.inputs.some((i) => i.name === k && !fits(i.type, v))).map(([k]) => k) }));
