// The fuzz properties, shared by `npm test` (a short budget) and `npm run fuzz` (100k cases):
// random directives go through parse → check → emit → import → render; the rendered fields must
// equal the oracle's, building twice must give identical files, nothing may throw, and every
// emitted module must type-check under strict tsc (checked in batches, one program per batch).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { runtimeFiles } from "../../src/output/runtime-files.js";
import { CODES } from "../../src/diagnostics/codes.js";
import { build, type BuildResult, type SourceFile } from "../../src/index.js";
import { directiveCase, directiveText, nearValidText, type DirectiveCase } from "./arbitraries.js";
import { oracleRender } from "./oracle.js";
import { STRICT, ts } from "../helpers/strict-tsc.js";


export interface FuzzStats {
  /** Valid-directive cases run through the whole pipeline and compared with the oracle. */
  renderCases: number;
  /** Of those, cases the checker rejected with an error the generator can produce by chance. */
  rejected: number;
  /** Near-valid (mutated) cases run through parse → check → emit (→ import when they compile). */
  nearValidCases: number;
  nearValidCompiled: number;
  /** Emitted modules type-checked under strict tsc. */
  typeChecked: number;
  diagnosticsByCode: Record<string, number>;
  /** Where the time went, in milliseconds. */
  ms: { build: number; importRender: number; tsc: number };
}

/** Errors a random valid-looking directive may earn honestly: random text spelling `{input:undeclared}`. */
const CHANCE_ERRORS = new Set(["RYE2001"]);

export class Fuzzer {
  readonly stats: FuzzStats = { renderCases: 0, rejected: 0, nearValidCases: 0, nearValidCompiled: 0, typeChecked: 0, diagnosticsByCode: {}, ms: { build: 0, importRender: 0, tsc: 0 } };
  private readonly dir = mkdtempSync(join(tmpdir(), "rye-fuzz-"));
  private pendingTs: string[] = [];
  private n = 0;

  constructor() {
    for (const [rel, text] of runtimeFiles()) this.write(rel, text);
  }

  /** Property: valid directives render exactly as the oracle says. */
  async renderProperty(runs: number, seed?: number): Promise<void> {
    await fc.assert(
      fc.asyncProperty(directiveCase, async (c) => this.checkCase(c)),
      { numRuns: runs, seed, endOnFailure: false },
    );
    this.flushTypecheck();
  }

  /** Property: near-valid text never makes the compiler throw, and whatever compiles imports and renders. */
  async nearValidProperty(runs: number, seed?: number): Promise<void> {
    await fc.assert(
      fc.asyncProperty(nearValidText, async (text) => this.checkNearValid(text)),
      { numRuns: runs, seed },
    );
    this.flushTypecheck();
  }

  private async checkCase(c: DirectiveCase): Promise<void> {
    const n = this.n++;
    const name = `c${n}`;
    const { text, afterFence } = directiveText(c, name);
    const src: SourceFile = { kind: "directive", id: `fz/${name}`, path: `.ai/directives/fz/${name}.md`, text };
    const result = this.buildTwice(src);
    this.stats.renderCases++;
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) {
      const unexpected = errors.filter((d) => !CHANCE_ERRORS.has(d.code));
      if (unexpected.length > 0) throw new Error(`a valid directive was rejected: ${unexpected.map((d) => `${d.code} ${d.message}`).join("; ")}`);
      this.stats.rejected++;
      return;
    }
    const t = performance.now();
    const mod = await this.emitAndImport(result, src.id);
    const got = mod.render(c.given, { env: c.env });
    this.stats.ms.importRender += performance.now() - t;
    const want = oracleRender({ text, declared: c.inputs, given: c.given, env: c.env }, afterFence);
    if (got.body !== want.body) throw new Error(`body differs\n got: ${JSON.stringify(got.body).slice(0, 2000)}\nwant: ${JSON.stringify(want.body).slice(0, 2000)}`);
    if (got.raw !== want.raw) throw new Error(`raw differs\n got: ${JSON.stringify(got.raw).slice(0, 2000)}\nwant: ${JSON.stringify(want.raw).slice(0, 2000)}`);
  }

  private async checkNearValid(text: string): Promise<void> {
    const n = this.n++;
    const src: SourceFile = { kind: "directive", id: `nv/n${n}`, path: `.ai/directives/nv/n${n}.md`, text };
    const result = this.buildTwice(src);
    this.stats.nearValidCases++;
    const lineCount = text.split(/\r\n|\r|\n/).length;
    for (const d of result.diagnostics) {
      if (!(d.code in CODES)) throw new Error(`unknown diagnostic code ${d.code}`);
      if (d.loc && (d.loc.start.line < 1 || d.loc.start.line > lineCount || d.loc.start.column < 1 || d.loc.end.offset < d.loc.start.offset)) {
        throw new Error(`${d.code} located outside the file: ${JSON.stringify(d.loc)}`);
      }
    }
    if (result.compiled.length === 0) return;
    this.stats.nearValidCompiled++;
    const mod = await this.emitAndImport(result, src.id);
    const inputs: Record<string, unknown> = {};
    for (const i of (mod.metadata.inputs ?? []) as { name: string }[]) Object.defineProperty(inputs, i.name, { value: "v", enumerable: true });
    const r = mod.render(inputs, { env: {} });
    if (typeof r.body !== "string" || typeof r.prompt !== "string") throw new Error("render returned no strings");
    mod.renderThread(inputs, { env: {} });
  }

  private buildTwice(src: SourceFile): BuildResult {
    const t = performance.now();
    try {
      return this.buildTwiceTimed(src);
    } finally {
      this.stats.ms.build += performance.now() - t;
    }
  }

  private buildTwiceTimed(src: SourceFile): BuildResult {
    const a = build([src], "fuzz", { emitTs: true });
    for (const d of a.diagnostics) this.stats.diagnosticsByCode[d.code] = (this.stats.diagnosticsByCode[d.code] ?? 0) + 1;
    const b = build([src], "fuzz", { emitTs: true });
    if (a.files.size !== b.files.size) throw new Error("two builds emitted different file sets");
    for (const [k, v] of a.files) if (b.files.get(k) !== v) throw new Error(`two builds differ in ${k}`);
    return a;
  }

  private async emitAndImport(result: BuildResult, id: string): Promise<any> {
    for (const [rel, text] of result.files) {
      if (rel === "package.json") this.write(rel, text);
      // Code beside declarations, TypeScript sources under ts/ (see README "What out/ holds").
      if (rel.startsWith("directives/") && rel.endsWith(".js")) this.write(rel, text);
      else if (rel.startsWith("ts/directives/") && rel.endsWith(".ts")) {
        this.write(rel, text);
        this.pendingTs.push(join(this.dir, rel));
      }
    }
    return import(pathToFileURL(join(this.dir, "directives", `${id}.js`)).href);
  }

  private readonly cache = new Map<string, import("typescript").SourceFile>();

  /** Type-checks the emitted `.ts` modules collected so far in one strict program. */
  flushTypecheck(): void {
    if (this.pendingTs.length === 0) return;
    const t = performance.now();
    // The lib and runtime declarations are the same for every batch (test/typecheck.test.ts checks them).
    const options = { ...STRICT, skipLibCheck: true };
    const host = ts.createCompilerHost(options);
    const original = host.getSourceFile.bind(host);
    // The runtime and lib files are the same for every batch: parse them once.
    host.getSourceFile = (file, lang, onError, fresh) => {
      const keep = file.includes(`${join(this.dir, "runtime")}`) || !file.startsWith(this.dir);
      if (keep && this.cache.has(file)) return this.cache.get(file);
      const sf = original(file, lang, onError, fresh);
      if (keep && sf) this.cache.set(file, sf);
      return sf;
    };
    const program = ts.createProgram(this.pendingTs, options, host);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${relative(this.dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    this.stats.typeChecked += this.pendingTs.length;
    this.stats.ms.tsc += performance.now() - t;
    this.pendingTs = [];
    if (problems.length > 0) throw new Error(`emitted modules do not type-check:\n${problems.slice(0, 20).join("\n")}`);
  }

  private write(rel: string, text: string): void {
    const path = join(this.dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}
