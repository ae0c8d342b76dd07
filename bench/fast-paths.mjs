// Each hand-written reader beside a Peggy grammar against the grammar's own parser, over the same
// texts, in turns: the layout scan (grammar/directive.peggy), the placeholder scanner
// (grammar/placeholders.peggy, every pass) and the simple XML reader (grammar/xml.peggy). A fast
// path is worth keeping only where what it saves is a visible share (MATTERS) of a build of the
// same texts (docs/performance.md); the call reader saved 1.7 %, so calls are read by the grammar.
import { join } from "node:path";
import { inTurns } from "./turns.mjs";

const SYSTEMS = ["InputRefs", "DollarInputs", "EnvRefs", "EnvVars", "ContextRefs", "Params", "Mixed"];
/** What a build must save for a fast path to stay: this share of the build's own time. */
export const MATTERS = 0.05;

export async function benchFastPaths(dist, sources, buildMs, rounds = 5) {
  const p = (rel) => import(join(dist, "parse", rel));
  const [{ scanLayout }, layoutPeg, { scanPlaceholders }, placeholdersPeg, { parseSimpleXml }, xmlPeg, { LineIndex }] = await Promise.all([
    p("scan-layout.js"),
    p("generated/directive.js"),
    p("placeholders.js"),
    p("generated/placeholders.js"),
    p("xml-simple.js"),
    p("generated/xml.js"),
    import(join(dist, "diagnostics", "diagnostic.js")),
  ]);
  const texts = sources.filter((s) => s.kind === "directive").map((s) => s.text);
  const xmls = texts.map((t) => scanLayout(t, "xml").fence).filter(Boolean).map((f) => f.inner?.text ?? "").filter((x) => x.length > 0);
  const where = (t) => ({ source: "x.md", lines: new LineIndex(t), base: 0 });
  const time = (f) => () => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };
  const rows = {
    layout: [() => texts.forEach((t) => scanLayout(t, "xml")), () => texts.forEach((t) => layoutPeg.parse(t, { fenceLanguage: "xml" }))],
    placeholders: [() => texts.forEach((t) => SYSTEMS.forEach((s) => scanPlaceholders(t, s, where(t)))), () => texts.forEach((t) => SYSTEMS.forEach((s) => placeholdersPeg.parse(t, { startRule: s })))],
    xml: [() => xmls.forEach((x) => parseSimpleXml(x) ?? xmlPeg.parse(x, { peg$silentFails: 1 })), () => xmls.forEach((x) => xmlPeg.parse(x, { peg$silentFails: 1 }))],
  };
  const out = {};
  for (const [name, [fast, grammar]] of Object.entries(rows)) {
    const turns = await inTurns(time(grammar), time(fast), rounds);
    const saved = turns.a.median - turns.b.median;
    out[name] = { grammar: turns.a, fast: turns.b, ratio: turns.ratio, savedMs: saved, shareOfBuild: saved / buildMs, matters: saved / buildMs >= MATTERS };
  }
  return { texts: texts.length, xmls: xmls.length, buildMs, rows: out };
}
