// Figures the bench prints beside its targets: output size, where a build's time goes, and what
// the emitted types cost tsc. None of them is a target on its own.
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";

/** Bytes under `dir/out` (without runtime/) and under `dir/.ai`, and their ratio; `byKind` splits the output by file kind. */
export function outputSize(dir) {
  const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  const bytes = (files) => files.reduce((a, f) => a + statSync(f).size, 0);
  const out = join(dir, "out");
  const files = walk(out).filter((f) => !f.slice(out.length + 1).startsWith("runtime"));
  const byKind = {};
  for (const f of files) {
    const rel = f.slice(out.length + 1);
    const kind = f.endsWith(".d.ts") ? ".d.ts" : f.endsWith(".ts") ? ".ts" : f.endsWith(".js") ? ".js" : rel.startsWith("manifest/") ? "manifest shards" : rel;
    byKind[kind] = (byKind[kind] ?? 0) + statSync(f).size;
  }
  const outBytes = bytes(files);
  const sourceBytes = bytes(walk(join(dir, ".ai")));
  return { outBytes, sourceBytes, ratio: outBytes / sourceBytes, byKind };
}

/** Where a non-incremental build's time goes, phase by phase, in this process. */
export async function phases(dist, dir, work) {
  const { readProject } = await import(join(dist, "project", "read-project.js"));
  const { parseDirective } = await import(join(dist, "parse", "parse-directive.js"));
  const { compileDirectives } = await import(join(dist, "compile", "compile-directives.js"));
  const { emit } = await import(join(dist, "emit", "index.js"));
  const { signOutput } = await import(join(dist, "sign", "sign-output.js"));
  const { generateKeyPair, loadSigningKey, writeKeyPair } = await import(join(dist, "sign", "keys.js"));
  const { writeOutput } = await import(join(dist, "output", "write-output.js"));
  const lap = (f) => {
    const t = performance.now();
    const v = f();
    return [performance.now() - t, v];
  };
  const [read, { sources }] = lap(() => readProject(dir));
  const [parse] = lap(() => sources.filter((s) => s.kind === "directive").forEach((s) => parseDirective(s.text, s.path)));
  const [compile, compiled] = lap(() => compileDirectives(sources, null));
  const [emitMs, files] = lap(() => emit(compiled.analyses, "bench", compiled.knowledge));
  const keyDir = join(work, "phase-key");
  writeKeyPair(keyDir, generateKeyPair());
  const key = loadSigningKey(keyDir);
  const [sign, signed] = lap(() => signOutput(files, key, "2026-01-01T00:00:00Z", new Map(), "bench"));
  const [write] = lap(() => writeOutput(join(work, "phase-out"), signed));
  return { read, parse, check: compile - parse, emit: emitMs, sign, write };
}

/** tsc --noEmit of a consumer importing the 1k registry vs the same consumer without it, in turns. */
export function tscOverhead(root, dir, work) {
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const consumer = join(work, "consumer");
  mkdirSync(consumer, { recursive: true });
  const config = { compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", skipLibCheck: true, types: [], allowJs: false } };
  writeFileSync(join(consumer, "package.json"), '{ "type": "module" }\n');
  const run = (name, code) => {
    writeFileSync(join(consumer, `${name}.ts`), code);
    writeFileSync(join(consumer, `tsconfig.${name}.json`), JSON.stringify({ ...config, files: [`${name}.ts`] }));
    const t = performance.now();
    const r = spawnSync(process.execPath, [tsc, "-p", join(consumer, `tsconfig.${name}.json`)], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`tsc failed for ${name}:\n${r.stdout}${r.stderr}`);
    return performance.now() - t;
  };
  const plain = `const greeting: string = "hello";\nexport const shout = (s: string): string => s.toUpperCase() + greeting;\n`;
  const importing = `${plain}import { directives } from ${JSON.stringify(join(dir, "out", "index.js"))};\nexport const ids: string[] = Object.keys(directives);\n`;
  const withoutRuns = [];
  const withRuns = [];
  for (let i = 0; i < 3; i++) {
    withoutRuns.push(run("without", plain));
    withRuns.push(run("with", importing));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[1];
  return { withoutMs: median(withoutRuns), withMs: median(withRuns), overheadMs: median(withRuns) - median(withoutRuns), withoutRuns, withRuns };
}
