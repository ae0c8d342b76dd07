/**
 * `node:vm` compiles a string with a name of the caller's choosing (`filename`, a module's
 * `identifier`): each function and class that does is replaced by a Proxy that shows the name to
 * a check first (`instanceof vm.Script` still holds). A context is a realm of its own, with its
 * own Function constructors: each one made through `vm` has them guarded as this realm's are,
 * before any code runs in it.
 */
import vm from "node:vm";
import { syncBuiltinESMExports } from "node:module";
import { REALM_SCRIPT, type Realm } from "./function-constructors.js";

export type RunOptions = { filename?: unknown; identifier?: unknown } | string | undefined;
type AnyFn = (...args: never[]) => unknown;
type VmRecord = Record<string, AnyFn | undefined>;
type ContextOptions = { contextName?: unknown; contextOrigin?: unknown; contextCodeGeneration?: unknown; microtaskMode?: unknown };

const table = vm as unknown as VmRecord;

/** Replaces `vm[name]` by a function that checks the options at `at` first. */
function wrapCall(name: string, at: number, check: (o: RunOptions) => void): void {
  table[name] = new Proxy(table[name]!, {
    apply(target, self, args: unknown[]) {
      check(args[at] as RunOptions);
      return Reflect.apply(target, self, args);
    },
  });
}

/** Replaces the class `vm[name]` by a Proxy that checks its options before constructing. */
function wrapClass(name: string, check: (o: RunOptions) => void): void {
  const original = table[name];
  if (typeof original !== "function") return;
  table[name] = new Proxy(original, {
    construct(target, args: unknown[], newTarget) {
      check(args[1] as RunOptions);
      return Reflect.construct(target, args, newTarget) as object;
    },
  });
}

/** The options `vm.createContext` takes, from those of `runInNewContext` (as Node maps them). */
function contextOptionsOf(options: RunOptions): vm.CreateContextOptions {
  if (typeof options !== "object" || options === null) return {};
  const o = options as ContextOptions;
  const mapped: Record<string, unknown> = { name: o.contextName, origin: o.contextOrigin, codeGeneration: o.contextCodeGeneration, microtaskMode: o.microtaskMode };
  return Object.fromEntries(Object.entries(mapped).filter(([, v]) => v !== undefined)) as vm.CreateContextOptions;
}

/**
 * Wraps `vm` once: `check` sees the name of everything compiled, `guardContext` every context made
 * (a new one by `runInNewContext` too: made here, with the options Node would give it).
 */
export function guardVm(check: (o: RunOptions) => void, guardContext: (realm: Realm) => void): void {
  const runInContext = vm.runInContext;
  const createContext = vm.createContext;
  const guarded = (context: vm.Context): vm.Context => {
    const [global, ...constructors] = runInContext(REALM_SCRIPT, context) as [object, ...Realm["constructors"]];
    guardContext({ global, constructors });
    return context;
  };
  table.createContext = new Proxy(createContext, {
    apply: (target, self, args: unknown[]) => guarded(Reflect.apply(target, self, args) as vm.Context),
  });
  // No sandbox is a new empty one; anything but an object is left for Node to refuse as it does.
  const contextFor = (sandbox: unknown, options: RunOptions): unknown => {
    const s = sandbox === undefined ? {} : sandbox;
    if (typeof s !== "object" || s === null || vm.isContext(s)) return s;
    return vm.createContext(s, contextOptionsOf(options));
  };
  const runInNewContext = vm.runInNewContext;
  table.runInNewContext = function ryeRunInNewContext(code: string, sandbox?: vm.Context, options?: RunOptions) {
    check(options);
    return runInNewContext.call(vm, code, contextFor(sandbox, options) as vm.Context, options as vm.RunningScriptOptions);
  } as AnyFn;
  const scriptRunInNewContext = vm.Script.prototype.runInNewContext;
  vm.Script.prototype.runInNewContext = function ryeScriptRunInNewContext(this: vm.Script, sandbox?: vm.Context, options?: vm.RunningScriptInNewContextOptions) {
    return scriptRunInNewContext.call(this, contextFor(sandbox, options as RunOptions) as vm.Context, options);
  };
  wrapCall("runInThisContext", 1, check);
  wrapCall("runInContext", 2, check);
  wrapCall("compileFunction", 2, check);
  wrapClass("Script", check);
  // Only with --experimental-vm-modules.
  wrapClass("SourceTextModule", check);
  // `import { runInThisContext } from "node:vm"` in a runner sees the wrapped ones too.
  syncBuiltinESMExports();
}
