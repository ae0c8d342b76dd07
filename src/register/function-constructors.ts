/**
 * The four Function constructors (Function, AsyncFunction, GeneratorFunction,
 * AsyncGeneratorFunction) compile a string into code, as a module runner that evaluates modules
 * without `node:vm` does (Vite's ESModulesEvaluator, behind `server.ssrLoadModule`). Each is
 * replaced, wherever code can reach it (the global `Function` and every prototype's `constructor`),
 * by a Proxy of itself that shows the compiled text to a check first.
 *
 * A Proxy keeps what code expects of the constructors: `fn instanceof Function`,
 * `Function.prototype`, `fn.constructor === Function`, `Function.name` and `length`, subclassing
 * and `Reflect.construct` all behave as before; only `Function.prototype.toString` of a
 * constructor reads `function () { [native code] }` without its name. Code that never calls a
 * constructor pays nothing, and functions compiled by `Function` are the engine's own.
 */

/** Sees the text about to be compiled (every argument, as the constructor reads them). */
export type CompileCheck = (text: string) => void;
/** Sees the arguments of a call of a compiled async or generator function, before its body runs. */
export type CallCheck = (args: readonly unknown[]) => void;

type Ctor = (...args: string[]) => unknown;

const toSource = Function.prototype.toString;

/** A realm's global object and its four constructors: Function, then the async and generator kinds. */
export interface Realm {
  global: object;
  constructors: readonly Ctor[];
}

const of = (f: object) => Object.getPrototypeOf(f).constructor as Ctor;

/** This thread's own realm. */
export function thisRealm(): Realm {
  return { global: globalThis, constructors: [Function as unknown as Ctor, of(async function () {}), of(function* () {}), of(async function* () {})] };
}

/**
 * Evaluated in a `vm` context: the context's realm, as `thisRealm` lists it. Read from literals and
 * the script's `this`, which a sandbox's own properties (`Function`, `Object`, `globalThis`) cannot shadow.
 */
export const REALM_SCRIPT = "[this, (function () {}).constructor, (async function () {}).constructor, (function* () {}).constructor, (async function* () {}).constructor]";

/** Each argument converted once, as the constructor would: what is checked is what gets compiled. */
function texts(args: readonly unknown[]): string[] {
  return args.map((a) => `${a as string}`);
}

/**
 * A compiled async or generator function whose every call is checked first. `toString` still
 * returns its source (runners measure the header the engine adds around a body with it).
 */
function checkedCalls(fn: Ctor, onCall: CallCheck): Ctor {
  const source = () => toSource.call(fn);
  return new Proxy(fn, {
    apply(target, self, args: unknown[]) {
      onCall(args);
      return Reflect.apply(target, self, args);
    },
    get(target, key, receiver) {
      if (key === "toString") return source;
      return Reflect.get(target, key, receiver);
    },
  });
}

function guarded(original: Ctor, calls: boolean, onCompile: CompileCheck, onCall: CallCheck): Ctor {
  const compile = (args: readonly unknown[], make: (strings: string[]) => Ctor): Ctor => {
    const strings = texts(args);
    onCompile(strings.join("\n"));
    const fn = make(strings);
    return calls ? checkedCalls(fn, onCall) : fn;
  };
  return new Proxy(original, {
    apply: (target, self, args: unknown[]) => compile(args, (s) => Reflect.apply(target, self, s) as Ctor),
    construct: (target, args: unknown[], newTarget) => compile(args, (s) => Reflect.construct(target, s, newTarget) as Ctor),
  });
}

/** Replaces `prototype.constructor` with its attributes kept (writable for Function, read-only for the others). */
function replaceConstructor(original: Ctor, replacement: Ctor): void {
  const proto = (original as unknown as { prototype: object }).prototype;
  const d = Object.getOwnPropertyDescriptor(proto, "constructor")!;
  Object.defineProperty(proto, "constructor", { ...d, value: replacement });
}

const guardedRealms = new WeakSet<object>();

/**
 * Installs the checks in `realm` once: each constructor's `prototype.constructor` and the global
 * `Function`. The async and generator kinds also check every call of what they compile: a runner
 * evaluating an ES module body (top-level await) hands those its `import.meta`.
 */
export function guardRealm(realm: Realm, onCompile: CompileCheck, onCall: CallCheck): void {
  if (guardedRealms.has(realm.global)) return;
  guardedRealms.add(realm.global);
  realm.constructors.forEach((original, i) => {
    const replacement = guarded(original, i > 0, onCompile, onCall);
    replaceConstructor(original, replacement);
    // A sandbox that brings a `Function` of its own keeps it.
    const d = i === 0 ? Object.getOwnPropertyDescriptor(realm.global, "Function") : undefined;
    if (d?.value === original) Object.defineProperty(realm.global, "Function", { ...d, value: replacement });
  });
}
