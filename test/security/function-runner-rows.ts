// The generated matrix of ways to compile a string into code that names a file: the four Function
// constructors × the ways code reaches each × the forms a name takes, the `import.meta` a call of
// an async or generator function is handed, and the `node:vm` functions and classes. One script
// runs every row in a process and prints, per row, "ran" or the error that stopped it; each row's
// payload writes its own marker file.
import { pathToFileURL } from "node:url";

export const KINDS = ["Function", "AsyncFunction", "GeneratorFunction", "AsyncGeneratorFunction"] as const;
export const ACCESS = ["the global, or the constructor a runner captures", "a function's constructor property", "Reflect.construct", "bound, called without new"] as const;
/** The forms a runner names a file by: `sourceURL` comments, `filename` options. */
export const NAME_FORMS: Record<string, (file: string) => string> = {
  "absolute path": (file) => file,
  "file:// URL": (file) => pathToFileURL(file).href,
  "with a query string": (file) => `${file}?import&t=1`,
  "with ?v=": (file) => `${file}?v=1a2b3c4d`,
};
export const META_FORMS: Record<string, (file: string) => string> = {
  "import.meta.url": (file) => `({ url: ${JSON.stringify(pathToFileURL(file).href)} })`,
  "import.meta.filename": (file) => `({ filename: ${JSON.stringify(file)}, dirname: "/" })`,
};
/** How code reaches another realm's constructors: a context made by createContext, or by runInNewContext. */
export const REALMS: Record<string, (expr: string) => string> = {
  "a vm.createContext context": (expr) => `vm.runInContext(${JSON.stringify(expr)}, vm.createContext({ process }))`,
  "a vm.runInNewContext context": (expr) => `vm.runInNewContext(${JSON.stringify(expr)}, { process })`,
};
/** Each kind's constructor as code inside a context reaches it. */
const IN_CONTEXT: Record<(typeof KINDS)[number], string> = {
  Function: "Function",
  AsyncFunction: "(async function () {}).constructor",
  GeneratorFunction: "(function* () {}).constructor",
  AsyncGeneratorFunction: "(async function* () {}).constructor",
};
export const VM_WAYS = ["vm.runInThisContext", "vm.runInContext", "vm.runInNewContext", "new vm.Script", "vm.compileFunction"] as const;

export interface Row {
  name: string;
  marker: string;
  /** JavaScript: an async function body that evaluates the row's payload. */
  code: string;
}

const CTOR: Record<(typeof KINDS)[number], string> = {
  Function: "globalThis.Function",
  AsyncFunction: "Object.getPrototypeOf(async function () {}).constructor",
  GeneratorFunction: "Object.getPrototypeOf(function* () {}).constructor",
  AsyncGeneratorFunction: "Object.getPrototypeOf(async function* () {}).constructor",
};
const LITERAL: Record<(typeof KINDS)[number], string> = {
  Function: "(function () {})",
  AsyncFunction: "(async function () {})",
  GeneratorFunction: "(function* () {})",
  AsyncGeneratorFunction: "(async function* () {})",
};
/** Runs a compiled function `f` of each kind with `args` until its body has run. */
const RUN: Record<(typeof KINDS)[number], (args: string) => string> = {
  Function: (a) => `f(${a});`,
  AsyncFunction: (a) => `await f(${a});`,
  GeneratorFunction: (a) => `f(${a}).next();`,
  AsyncGeneratorFunction: (a) => `await f(${a}).next();`,
};

function compile(kind: (typeof KINDS)[number], access: (typeof ACCESS)[number], text: string): string {
  const t = JSON.stringify(text);
  switch (access) {
    case "the global, or the constructor a runner captures":
      return `const C = ${CTOR[kind]};\nconst f = new C("a", ${t});`;
    case "a function's constructor property":
      return `const f = new ${LITERAL[kind]}.constructor("a", ${t});`;
    case "Reflect.construct":
      return `const f = Reflect.construct(${CTOR[kind]}, ["a", ${t}]);`;
    case "bound, called without new":
      return `const f = ${CTOR[kind]}.bind(null, "a", ${t})();`;
  }
}

const write = (marker: string) => `process.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(marker)}, "payload ran");`;

function vmCode(way: (typeof VM_WAYS)[number], body: string, name: string): string {
  const b = JSON.stringify(body);
  const n = JSON.stringify(name);
  switch (way) {
    case "vm.runInThisContext":
      return `vm.runInThisContext(${b}, { filename: ${n} });`;
    case "vm.runInContext":
      return `vm.runInContext(${b}, vm.createContext({ process }), { filename: ${n} });`;
    case "vm.runInNewContext":
      return `vm.runInNewContext(${b}, { process }, ${n});`;
    case "new vm.Script":
      return `new vm.Script(${b}, { filename: ${n} }).runInThisContext();`;
    case "vm.compileFunction":
      return `vm.compileFunction(${b}, [], { filename: ${n} })();`;
  }
}

/** Every row naming `file`, with its markers under `markers` (a folder) and names prefixed by `label`. */
export function functionRunnerRows(file: string, markers: string, label: string): Row[] {
  const rows: Row[] = [];
  const add = (name: string, code: (marker: string) => string) => {
    const marker = `${markers}/${rows.length}`;
    rows.push({ name: `${label}: ${name}`, marker, code: code(marker) });
  };
  for (const kind of KINDS)
    for (const access of ACCESS)
      for (const [form, named] of Object.entries(NAME_FORMS)) add(`${kind}, ${access}, sourceURL as ${form}`, (m) => `${compile(kind, access, `${write(m)}\n//# sourceURL=${named(file)}`)}\n${RUN[kind]("")}`);
  for (const kind of KINDS.slice(1))
    for (const access of ACCESS)
      for (const [form, meta] of Object.entries(META_FORMS)) add(`${kind}, ${access}, called with ${form}`, (m) => `${compile(kind, access, write(m))}\n${RUN[kind](meta(file))}`);
  for (const kind of KINDS)
    for (const [realm, reach] of Object.entries(REALMS)) {
      for (const [form, named] of Object.entries(NAME_FORMS)) add(`${kind}, of ${realm}, sourceURL as ${form}`, (m) => `const C = ${reach(IN_CONTEXT[kind])};\nconst f = new C("a", ${JSON.stringify(`${write(m)}\n//# sourceURL=${named(file)}`)});\n${RUN[kind]("")}`);
      if (kind !== "Function") add(`${kind}, of ${realm}, called with import.meta.url`, (m) => `const C = ${reach(IN_CONTEXT[kind])};\nconst f = new C("a", ${JSON.stringify(write(m))});\n${RUN[kind](META_FORMS["import.meta.url"]!(file))}`);
    }
  for (const way of VM_WAYS) for (const [form, named] of Object.entries(NAME_FORMS)) add(`${way}, filename as ${form}`, (m) => vmCode(way, write(m), named(file)));
  return rows;
}

/** A script that runs `rows` in turn and prints `{ name: "ran" | "<error name>: <message>" }`. */
export function rowsScript(rows: readonly Row[], before = ""): string {
  const cases = rows.map((r) => `  [${JSON.stringify(r.name)}, async () => {\n${r.code}\n  }],`).join("\n");
  return `import vm from "node:vm";
${before}
const rows = [
${cases}
];
const results = {};
for (const [name, run] of rows) {
  try {
    await run();
    results[name] = "ran";
  } catch (e) {
    results[name] = \`\${e?.name}: \${e?.message}\`;
  }
}
console.log(JSON.stringify(results));
`;
}
