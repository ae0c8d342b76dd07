// Render benchmark: for every directive, the compiled render() against
//   literal     — a template-literal function producing the same four strings (the limit),
//   eta         — Eta's compiled function for an equivalent template (raw output, no trimming),
//   handlebars  — Handlebars precompiled for an equivalent template (triple-stash, no escaping),
//   interpreter — what the original does on every execution: parse the .md, validate, regex-interpolate, build the prompt.
// Each competitor is checked to produce exactly what render() produces before it is timed; a
// directive whose text one engine cannot express (e.g. a literal `{{`) is left out of that engine's ratio.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Eta } from "eta";
import Handlebars from "handlebars";

const FIELDS = ["body", "content", "raw", "prompt"];
const MARK = /\u0001i(\d+)\u0001/;

/** Compiles `sources` unsigned into a temp dir and returns [{ id, text, path, mod }] for each compiled directive. */
async function compileAll(dist, sources) {
  const { build } = await import(`${dist}/index.js`);
  const { runtimeFiles } = await import(`${dist}/output/runtime-files.js`);
  const { files, compiled } = build(sources, "bench");
  const dir = mkdtempSync(join(tmpdir(), "rye-bench-render-"));
  for (const [rel, text] of [...files, ...runtimeFiles()]) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  const out = [];
  for (const id of compiled) {
    const src = sources.find((s) => s.kind === "directive" && s.id === id);
    out.push({ id, text: src.text, path: src.path, mod: await import(pathToFileURL(join(dir, "directives", `${id}.js`)).href) });
  }
  return out;
}

const NO_ENV = Object.freeze({ env: Object.freeze({}) });
const pick = (r) => ({ body: r.body, content: r.content, raw: r.raw, prompt: r.prompt });
const same = (a, b) => FIELDS.every((f) => a[f] === b[f]);

/** Each field of render() split at the inputs: literal text and input indexes, alternating. */
function shape(mod, names) {
  const marks = Object.fromEntries(names.map((n, i) => [n, `\u0001i${i}\u0001`]));
  const r = mod.render(marks, { env: {} });
  if (r.actions.length > 0) return null;
  return Object.fromEntries(FIELDS.map((f) => [f, r[f].split(MARK)]));
}

function literalFn(parts) {
  const tpl = (ps) => "`" + ps.map((p, i) => (i % 2 ? `\${p.i${p}}` : p.replace(/[`\\]|\$\{/g, (m) => `\\${m}`))).join("") + "`";
  return new Function("p", `return { ${FIELDS.map((f) => `${f}: ${tpl(parts[f])}`).join(", ")} };`);
}

function etaFns(parts) {
  const eta = new Eta({ autoEscape: false, autoTrim: false, useWith: false });
  const fns = Object.fromEntries(FIELDS.map((f) => [f, eta.compile(parts[f].map((p, i) => (i % 2 ? `<%~ it.i${p} %>` : p)).join(""))]));
  return (p) => ({ body: eta.render(fns.body, p), content: eta.render(fns.content, p), raw: eta.render(fns.raw, p), prompt: eta.render(fns.prompt, p) });
}

function handlebarsFns(parts) {
  const fns = Object.fromEntries(
    FIELDS.map((f) => {
      const src = parts[f].map((p, i) => (i % 2 ? `{{{i${p}}}}` : p.replace(/\\/g, "\\\\").replace(/\{\{/g, "\\{{"))).join("");
      // eslint-disable-next-line no-eval
      return [f, Handlebars.template(eval(`(${Handlebars.precompile(src, { noEscape: true })})`))];
    }),
  );
  return (p) => ({ body: fns.body(p), content: fns.content(p), raw: fns.raw(p), prompt: fns.prompt(p) });
}

async function interpreterFn(dist, text, path) {
  const { parseDirective } = await import(`${dist}/parse/parse-directive.js`);
  const { validateInputs } = await import(`${dist}/runtime/validate.js`);
  const { interpolateParsed } = await import(`${dist}/runtime/interpolate.js`);
  const { buildPrompt } = await import(`${dist}/runtime/directive.js`);
  const { promptParts } = await import(`${dist}/emit/prompt-parts.js`);
  return (p) => {
    const data = parseDirective(text, path).data;
    const v = validateInputs(data.inputs ?? [], p);
    const r = interpolateParsed(data, v.status === "success" ? v.inputs : p, {});
    return { body: r.body, content: r.content, raw: r.raw, prompt: buildPrompt(promptParts(r, false), r.content, r.body) };
  };
}

/** Calls per batch so that one batch of `fn(arg, opts)` takes about `batchMs`. */
function batchSize(fn, arg, opts, batchMs) {
  let n = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < n; i++) fn(arg, opts);
    if (performance.now() - t > batchMs / 4 || n > 1e6) return n;
    n *= 4;
  }
}

/**
 * Median ns per call of each engine over `rounds` batches. Engines take turns batch by batch, so
 * a burst of load on a shared machine hits all of them alike instead of one engine's whole run.
 */
function timeEngines(entries, rounds, batchMs) {
  const sized = entries.map(([e, [fn, arg, opts]]) => [e, fn, arg, opts, batchSize(fn, arg, opts, batchMs)]);
  const times = Object.fromEntries(entries.map(([e]) => [e, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [e, fn, arg, opts, n] of sized) {
      const t = process.hrtime.bigint();
      for (let i = 0; i < n; i++) fn(arg, opts);
      times[e].push(Number(process.hrtime.bigint() - t) / n);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([e, xs]) => [e, xs.sort((a, b) => a - b)[rounds >> 1]]));
}

const geomean = (xs) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

/** Runs the render benchmark over `sources` (directives with project-relative paths). */
export async function benchRender(dist, sources, { rounds = 11, batchMs = 3 } = {}) {
  const directives = await compileAll(dist, sources);
  const engines = ["compiled", "literal", "eta", "handlebars", "interpreter"];
  const perDirective = [];
  const perEngine = Object.fromEntries(engines.map((e) => [e, { ns: [], ratios: [], skipped: 0 }]));
  for (const d of directives) {
    const names = (d.mod.metadata.inputs ?? []).map((i) => i.name);
    const parts = shape(d.mod, names);
    if (!parts) continue;
    const named = Object.fromEntries(names.map((n, i) => [n, `value ${i} of ${n}`]));
    const indexed = Object.fromEntries(names.map((n, i) => [`i${i}`, named[n]]));
    const expected = pick(d.mod.render(named, NO_ENV));
    // An engine that cannot even compile the equivalent template is skipped for this directive.
    const attempt = (make) => { try { return make(); } catch { return () => ({}); } };
    const fns = {
      // Called directly like the others, with one options object for every call (no {env:} lookups).
      compiled: [d.mod.render, named, NO_ENV],
      literal: [literalFn(parts), indexed],
      eta: [attempt(() => etaFns(parts)), indexed],
      handlebars: [attempt(() => handlebarsFns(parts)), indexed],
      interpreter: [await interpreterFn(dist, d.text, d.path), named],
    };
    const ok = Object.fromEntries(engines.map((e) => [e, (() => { try { return same(pick(fns[e][0](fns[e][1], fns[e][2])), expected); } catch { return false; } })()]));
    if (!ok.literal) continue;
    const ns = timeEngines(engines.filter((e) => ok[e]).map((e) => [e, fns[e]]), rounds, batchMs);
    perDirective.push({ id: d.id, ns });
    for (const e of engines) {
      if (!ok[e]) {
        perEngine[e].skipped++;
        continue;
      }
      perEngine[e].ns.push(ns[e]);
      perEngine[e].ratios.push(ns.compiled / ns[e]);
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    directives: perEngine.compiled.ns.length,
    perDirective,
    engines: Object.fromEntries(
      engines.map((e) => [e, { usPerRender: mean(perEngine[e].ns) / 1000, compiledOverThis: geomean(perEngine[e].ratios), directives: perEngine[e].ns.length, skipped: perEngine[e].skipped }]),
    ),
  };
}
