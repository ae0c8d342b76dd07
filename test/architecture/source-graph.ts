// The import graph and the function lengths of src/, read with the TypeScript compiler's own parser,
// and the folder rules checked against them. The checks take a graph as data, so that a test can
// hand them a made-up graph that breaks a rule and see them fail.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** A module of src/ by its path under src/ (`emit/index.ts`), with what it imports and its functions. */
export interface SourceModule {
  path: string;
  /** Modules of src/ this one imports or re-exports from, by path under src/ (type-only imports included). */
  imports: string[];
  functions: { name: string; line: number; lines: number }[];
}

export type SourceGraph = Map<string, SourceModule>;

/** The phases of the compiler in pipeline order: a phase may import an earlier one, never a later one. */
export const PHASES = ["parse", "analyze", "emit", "sign"] as const;
/** The pipeline that drives the phases, and the command line over it: no phase imports them. */
export const ORCHESTRATION = ["compile", "cli"] as const;
export const MAX_FUNCTION_LINES = 80;

const folderOf = (path: string) => (path.includes("/") ? path.slice(0, path.indexOf("/")) : "");

function* tsFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* tsFiles(full);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) yield full;
  }
}

/** A function's name as a reader finds it: its own, or the variable, property or method it is bound to. */
function nameOf(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && ts.isIdentifier(named.name)) return named.name.text;
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name)) return parent.name.text;
  return "(anonymous)";
}

/** Reads one module: its imports of other src/ modules and the length of each function, body included. */
export function readModule(srcDir: string, file: string, text: string): SourceModule {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const imports: string[] = [];
  const functions: SourceModule["functions"] = [];
  const visit = (node: ts.Node) => {
    const spec = (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : null;
    if (spec?.startsWith(".")) imports.push(relative(srcDir, resolve(dirname(file), spec.replace(/\.js$/, ".ts"))).split(sep).join("/"));
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      functions.push({ name: nameOf(node), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { path: relative(srcDir, file).split(sep).join("/"), imports: [...new Set(imports)], functions };
}

/** Every module of a source folder (generated parsers included: they obey the folder rules too). */
export function readGraph(srcDir: string): SourceGraph {
  const graph: SourceGraph = new Map();
  for (const file of tsFiles(srcDir)) {
    const m = readModule(srcDir, file, readFileSync(file, "utf8"));
    graph.set(m.path, m);
  }
  return graph;
}

/** Import cycles, each as the modules of one strongly connected component (Tarjan's algorithm). */
export function cycles(graph: SourceGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.imports ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)!.imports.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return found;
}

/** Imports that break a folder rule, as `from → to (rule)`. */
export function folderViolations(graph: SourceGraph): string[] {
  const out: string[] = [];
  for (const m of graph.values()) {
    const from = folderOf(m.path);
    for (const to of m.imports) {
      const target = folderOf(to);
      const rank = (f: string) => (PHASES as readonly string[]).indexOf(f);
      if (rank(from) >= 0 && rank(target) > rank(from)) out.push(`${m.path} → ${to} (a phase imports a later phase)`);
      if (rank(from) >= 0 && (ORCHESTRATION as readonly string[]).includes(target)) out.push(`${m.path} → ${to} (a phase imports the orchestration)`);
      if (from === "runtime" && target !== "runtime") out.push(`${m.path} → ${to} (the runtime imports the compiler)`);
      if (from === "model" && (rank(target) >= 0 || (ORCHESTRATION as readonly string[]).includes(target))) out.push(`${m.path} → ${to} (the model imports a phase)`);
    }
  }
  return out;
}

/** Functions longer than the limit, as `path:line name (n lines)`. */
export function longFunctions(graph: SourceGraph, max = MAX_FUNCTION_LINES): string[] {
  return [...graph.values()].flatMap((m) => m.functions.filter((f) => f.lines > max).map((f) => `${m.path}:${f.line} ${f.name} (${f.lines} lines)`));
}
