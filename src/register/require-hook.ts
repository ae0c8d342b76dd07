/**
 * `require()` of build output, verified. Node's CommonJS loader (require, createRequire,
 * module.require, and `require()` of ES modules, on by default since Node 20.19) never runs the
 * async loader hooks, so the register entry wraps the loader's `.js`/`.mjs`/`.cjs` handlers: each
 * file is read once, checked by the OutputGuard, and the verified text is what gets compiled.
 *
 * An ES module loaded by require() has its static imports read by a loader no hook reaches. So
 * before such a module is compiled, its static import graph is walked here: every output module in
 * it is read once, verified, and compiled (evaluated) from those bytes, leaves first, which is the
 * order ES modules evaluate in. Node then finds each of them in its module cache and never reads
 * them again. A graph in which that cannot hold (an import cycle through output) is refused.
 */
import { realpathSync } from "node:fs";
import Module, { createRequire, isBuiltin } from "node:module";
import { dirname, extname, resolve as resolvePath } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { IntegrityError } from "../verify/integrity-error.js";
import type { OutputGuard } from "../verify/output-guard.js";
import { moduleSyntax, type ModuleSyntax } from "./import-specifiers.js";
import { formatOf, packageTypeOf, type ModuleFormat } from "./module-format.js";
import { requestedPath } from "./requested-path.js";

/** Resolves `specifier` as an ES module import from `parentUrl`; throws when it does not resolve. */
export type ResolveImport = (specifier: string, parentUrl: string) => string;

type CjsModule = InstanceType<typeof Module> & { _compile(text: string, filename: string, format?: string): unknown };
type Handler = (module: CjsModule, filename: string) => void;
type Compile = (this: CjsModule, text: string, filename: string, format?: string) => unknown;
type ResolveFilename = (request: string, parent: CjsModule | undefined, ...rest: unknown[]) => string;
type ModuleInternals = {
  _extensions: Record<string, Handler>;
  _nodeModulePaths(dir: string): string[];
  _resolveFilename: ResolveFilename;
  prototype: { _compile: Compile; load(this: CjsModule, filename: string): void };
};

const internals = Module as unknown as ModuleInternals;
const EXTENSIONS = [".js", ".mjs", ".cjs"] as const;
/** Extensions whose handler here reads the file once and evaluates exactly the verified bytes. */
const VERIFIED_HERE = new Set<string>([...EXTENSIONS, ".json"]);
const decoder = new TextDecoder("utf-8");
const PRESERVE_SYMLINKS = process.execArgv.includes("--preserve-symlinks") || /(?:^|\s)--preserve-symlinks(?:\s|$)/.test(process.env.NODE_OPTIONS ?? "");

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** One file as read once: its bytes' text, whether it is verified output, and how Node evaluates it. */
interface ReadFile {
  path: string;
  text: string;
  output: boolean;
  format: ModuleFormat;
  /** Its imports and whether it has module syntax, parsed at most once (syntaxOf). */
  syntax?: ModuleSyntax;
}

function syntaxOf(file: ReadFile): ModuleSyntax {
  return (file.syntax ??= moduleSyntax(file.text, file.path));
}

/** Node's format for `file` as rye reads it: the package scope's type, else its syntax. */
function formatFor(file: ReadFile): ModuleFormat {
  return formatOf(file.path, () => packageTypeOf(file.path), () => syntaxOf(file).hasModuleSyntax);
}

export class RequireVerifier {
  /** Files whose static graph was walked (and, for output, compiled from verified bytes). */
  private readonly done = new Set<string>();
  /** Files this verifier is compiling now, from the text it checked. */
  private readonly vouched = new Set<string>();

  /**
   * `nodeResolve` is Node's own CommonJS resolution of a request from a file, with no rule applied:
   * what Node's linker of a required ES module will load, since no hook reaches it.
   */
  constructor(
    private readonly guard: OutputGuard,
    private readonly resolve: ResolveImport,
    private readonly nodeResolve: (request: string, fromFile: string) => string | null = () => null,
  ) {}

  /** Reads `path` once and checks it: throws IntegrityError for output that does not verify. */
  read(path: string): ReadFile {
    const bytes = this.guard.read(path);
    const output = this.guard.check(path, bytes) !== undefined;
    const file: ReadFile = { path, text: decoder.decode(bytes), output, format: "commonjs" };
    file.format = formatFor(file);
    return file;
  }

  /** The `_extensions` handler: evaluates verified output from the bytes checked, anything else as Node would. */
  load(module: CjsModule, filename: string, original: Handler): void {
    const file = this.read(filename);
    // What this handler compiles, or hands on to Node's after checking it, is not checked again by `compiling`.
    this.vouched.add(filename);
    try {
      if (mayBeModule(file) && process.features.require_module) {
        this.walk(file, new Set([filename]), module);
        this.done.add(filename);
      }
      // Without require(esm) Node's handler refuses an ES module itself, before evaluating anything.
      if (!file.output || (file.format === "module" && !process.features.require_module)) return original(module, filename);
      module._compile(file.text, filename, file.format);
    } finally {
      this.vouched.delete(filename);
    }
  }

  /**
   * Every compile this handler did not vouch for: another require hook installed later, which read
   * the file itself. Its text must be the verified bytes (a transformed or tampered text is refused),
   * and an ES module's imports are compiled from verified bytes first, as `load` does.
   */
  compiling(module: CjsModule, text: string, filename: string, format: string | undefined): void {
    if (this.vouched.has(filename)) return;
    // Not output: its text is the hook's to choose, but the output it imports is still linked by Node.
    const output = this.guard.check(filename, text) !== undefined;
    const file: ReadFile = { path: filename, text, output, format: "commonjs" };
    file.format = format === "module" || format === "commonjs" ? format : formatFor(file);
    if (!mayBeModule(file) || !process.features.require_module) return;
    this.walk(file, new Set([filename]), module);
    this.done.add(filename);
  }

  /**
   * Walks the static imports of `file` depth first; every ES module of build output met is
   * compiled from its verified text once its own imports are, so Node links them from its cache.
   */
  private walk(file: ReadFile, stack: Set<string>, parent: CjsModule): void {
    // Node resolves a module's imports from its real path (links resolved), unless told to keep them.
    const parentUrl = pathToFileURL(PRESERVE_SYMLINKS ? file.path : real(file.path)).href;
    for (const specifier of syntaxOf(file).imports) {
      if (isBuiltin(specifier)) continue;
      // Unresolvable: this throws, as Node's linking would, before anything runs.
      const url = this.resolve(specifier, parentUrl);
      if (!url.startsWith("file:")) continue;
      // The path as Node resolved it (real, or kept with --preserve-symlinks): the key of Node's module cache.
      const path = fileURLToPath(url);
      if (file.output) this.sameAsNode(specifier, file.path);
      if (this.done.has(path)) continue;
      if (stack.has(path)) {
        if (file.output || this.guard.outputFolderOf(real(path)) !== null) throw this.cycle(file.path, path);
        continue;
      }
      const child = this.read(path);
      // CommonJS is loaded through require(), which comes back to this handler.
      if (mayBeModule(child)) {
        stack.add(path);
        this.walk(child, stack, parent);
        stack.delete(path);
        if (child.output) this.compile(child, parent);
      }
      this.done.add(path);
    }
  }

  /**
   * Node links a required ES module's imports itself: a runtime package that the rule resolves from
   * rye-build's install (`resolved`) must be the very file Node's own lookup from the output module
   * finds, or a node_modules above the output (a checkout's) would supply it. Otherwise refused.
   */
  private sameAsNode(specifier: string, from: string): void {
    if (this.guard.checkImport(specifier, from) !== "rye") return;
    const own = this.nodeResolve(specifier, from);
    let resolved: string;
    try {
      resolved = createRequire(import.meta.url).resolve(specifier);
    } catch {
      resolved = "nothing";
    }
    if (own !== null && real(own) === real(resolved)) return;
    throw new IntegrityError(from, `${from} imports ${specifier}: under require(), Node resolves it from the output module itself, to ${own ?? "nothing"}, not to rye-build's own ${resolved}, so it does not run\n  Fix: load it with import or await import() under --import rye-build/register, or install ${specifier} beside rye-build`);
  }

  /** Evaluates a verified output module from its verified text, as a module of Node's ES module cache. */
  private compile(file: ReadFile, parent: CjsModule): void {
    const m = new Module(file.path, parent) as CjsModule;
    m.filename = file.path;
    m.paths = internals._nodeModulePaths(dirname(file.path));
    this.vouched.add(file.path);
    try {
      m._compile(file.text, file.path, "module");
    } finally {
      this.vouched.delete(file.path);
    }
    m.loaded = true;
  }

  private cycle(from: string, to: string): IntegrityError {
    return new IntegrityError(to, `${from} and ${to} import each other: require() cannot load build output in an import cycle from verified bytes alone, so it does not run\n  Fix: load it with import or await import() under --import rye-build/register`);
  }
}

/**
 * `.json` under the loader: read once, checked (output the manifest does not list is refused), and
 * the verified bytes are what gets parsed, as Node's own handler parses them (a BOM is dropped).
 */
function verifiedJson(guard: OutputGuard, original: Handler): Handler {
  return function ryeVerifiedJson(module, filename) {
    const bytes = guard.read(filename);
    if (guard.check(filename, bytes) === undefined) return original(module, filename);
    const text = decoder.decode(bytes).replace(/^\uFEFF/, "");
    try {
      module.exports = JSON.parse(text);
    } catch (e) {
      (e as Error).message = `${filename}: ${(e as Error).message}`;
      throw e;
    }
  };
}

/**
 * Every file `require()` loads from an output folder is checked whatever its extension, before the
 * extension's handler (one registered later included) touches it. rye never writes a native addon,
 * and `process.dlopen` runs an addon's constructors before anything could check it: a `.node` file in
 * an output folder is refused outright. Other extensions not verified by the handlers here are
 * checked on their bytes first (unlisted files refused) and then handed to their handler.
 */
function checkAnyExtension(guard: OutputGuard, filename: string): void {
  if (guard.outputFolderOf(real(filename)) === null) return;
  const ext = extname(filename);
  if (ext === ".node") throw new IntegrityError(filename, `${filename} is a native addon inside a build output folder: rye build never writes one, and loading it runs its code before anything can check it, so it does not load`);
  if (VERIFIED_HERE.has(ext) || internals._extensions[ext] === undefined) return;
  guard.check(filename, guard.read(filename));
}

/** The path `request` names from `parent`, links not followed (what Node's resolver will realpath). */
function checkRequest(guard: OutputGuard, request: string, parent: CjsModule | undefined, resolved: string): void {
  guard.checkRequested(resolved);
  const fromDir = parent?.filename ? dirname(parent.filename) : process.cwd();
  const asked = requestedPath(request, fromDir, /^(?:\.\.?(?:\/|$)|\/)/.test(request) ? undefined : (parent?.paths ?? internals._nodeModulePaths(fromDir)));
  if (asked !== null) guard.checkRequested(asked);
  // What the request names as written (a folder too), before index files and package.json are consulted.
  const named = /^(?:\.\.?(?:\/|$)|\/)/.test(request) ? resolvePath(fromDir, request) : asked;
  for (const path of new Set([named, asked])) if (path !== null) guard.checkLands(path, resolved);
  // Last: a link reached under a name no check above could read (an alias, NODE_PATH).
  guard.checkNotLinked(resolved, parent?.filename ?? null);
}

/**
 * Whether Node may load `file` as an ES module under require(): rye's reading of its format, or its
 * syntax. Node decides the format with readers no hook sees (package scopes across links and
 * node_modules boundaries, syntax detection), so a file with module syntax is walked whatever rye
 * guessed: walking a file Node then loads as CommonJS compiles nothing it would not have loaded.
 */
function mayBeModule(file: ReadFile): boolean {
  return file.format === "module" || syntaxOf(file).hasModuleSyntax;
}

let installed: RequireVerifier | undefined;
let selfModule: CjsModule | undefined;

/** A module standing for rye-build's own code, to resolve a runtime package from its install. */
function ryeParent(): CjsModule {
  if (!selfModule) {
    const self = fileURLToPath(import.meta.url);
    selfModule = new Module(self) as CjsModule;
    selfModule.filename = self;
    selfModule.paths = internals._nodeModulePaths(dirname(self));
  }
  return selfModule;
}

/**
 * Wraps Node's CommonJS handlers once per thread, and `Module.prototype._compile` behind them, for a
 * require hook installed later that replaces the handlers instead of calling them. Later calls keep
 * the first verifier.
 */
export function installRequireHook(guard: OutputGuard, resolve: ResolveImport): RequireVerifier {
  if (installed) return installed;
  const resolveFilename = internals._resolveFilename;
  const nodeResolve = (request: string, fromFile: string): string | null => {
    const parent = new Module(fromFile) as CjsModule;
    parent.filename = fromFile;
    parent.paths = internals._nodeModulePaths(dirname(fromFile));
    try {
      return resolveFilename.call(internals, request, parent);
    } catch {
      return null;
    }
  };
  const verifier = new RequireVerifier(guard, resolve, nodeResolve);
  const compile = internals.prototype._compile;
  internals.prototype._compile = function ryeCheckedCompile(text, filename, format) {
    verifier.compiling(this, text, filename, format);
    return compile.call(this, text, filename, format);
  };
  for (const ext of EXTENSIONS) {
    const original = internals._extensions[ext];
    if (!original) continue;
    internals._extensions[ext] = function ryeVerifiedRequire(module, filename) {
      verifier.load(module, filename, original);
    };
  }
  const json = internals._extensions[".json"];
  if (json) internals._extensions[".json"] = verifiedJson(guard, json);
  // Module.prototype.load picks the handler for every extension, including ones registered later.
  const load = internals.prototype.load;
  internals.prototype.load = function ryeCheckedLoad(filename) {
    checkAnyExtension(guard, filename);
    return load.call(this, filename);
  };
  // Node's resolver realpaths what it finds: the request, as asked, is checked before that.
  internals._resolveFilename = function ryeCheckedResolve(request, parent, ...rest) {
    // A module of an output folder: a runtime package resolves from this install of rye-build, never from node_modules in or above the output.
    const rule = parent?.filename ? guard.checkImport(request, parent.filename) : null;
    const resolved = resolveFilename.call(this, request, rule === "rye" ? ryeParent() : parent, ...rest);
    if (rule === "self" && !isBuiltin(resolved)) guard.checkImport(request, parent!.filename, resolved);
    if (!isBuiltin(resolved)) checkRequest(guard, request, parent, resolved);
    return resolved;
  };
  installed = verifier;
  return verifier;
}
