// Each hand-written reader beside a Peggy grammar against the grammar's own parser, over the same
// texts, in turns: the layout scan (grammar/directive.peggy), the placeholder scanner
// (grammar/placeholders.peggy, every pass), the simple XML reader (grammar/xml.peggy) and the
// simple call reader (grammar/calls.peggy). A fast path is worth keeping only where what it saves
// is a visible share of a build of the same texts (docs/architecture.md, "Grammars and fast paths").
import { join } from "node:path";
import { inTurns } from "./turns.mjs";

const SYSTEMS = ["InputRefs", "DollarInputs", "EnvRefs", "EnvVars", "ContextRefs", "Params", "Mixed"];
/** What a build must save for a fast path to stay: this share of the build's own time. */
export const MATTERS = 0.05;

export async function benchFastPaths(dist, sources, buildMs, rounds = 5) {
  const p = (rel) => import(join(dist, "parse", rel));
  const [{ scanLayout }, layoutPeg, { scanPlaceholders }, placeholdersPeg, { parseSimpleXml }, xmlPeg, { scanCalls }, callsPeg, { LineIndex }] = await Promise.all([
    p("scan-layout.js"),
    p("generated/directive.js"),
    p("placeholders.js"),
    p("generated/placeholders.js"),
    p("xml-simple.js"),
    p("generated/xml.js"),
    p("scan-calls.js"),
    p("generated/calls.js"),
    import(join(dist, "diagnostics", "diagnostic.js")),
  ]);
  const texts = sources.filter((s) => s.kind === "directive").map((s) => s.text);
  const xmls = texts.map((t) => scanLayout(t, "xml").fence).filter(Boolean).map((f) => f.inner?.text ?? "").filter((x) => x.length > 0);
  const where = (t) => ({ source: "x.md", lines: new LineIndex(t), base: 0 });
  /** The calls of `text` through the grammar alone, as scan-calls does for the calls its fast path leaves. */
  const peggyCalls = (text) => {
    const out = [];
    for (let pos = text.indexOf("`"); pos !== -1; ) {
      const r = callsPeg.parse(text, { startRule: "Call", peg$library: true, peg$currPos: pos, peg$silentFails: 1 });
      const ok = r.peg$result !== r.peg$FAILED;
      if (ok) out.push(r.peg$result);
      pos = text.indexOf("`", ok ? r.peg$currPos : pos + 1);
    }
    return out;
  };
  const time = (f) => () => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };
  const rows = {
    layout: [() => texts.forEach((t) => scanLayout(t, "xml")), () => texts.forEach((t) => layoutPeg.parse(t, { fenceLanguage: "xml" }))],
    placeholders: [() => texts.forEach((t) => SYSTEMS.forEach((s) => scanPlaceholders(t, s, where(t)))), () => texts.forEach((t) => SYSTEMS.forEach((s) => placeholdersPeg.parse(t, { startRule: s })))],
    xml: [() => xmls.forEach((x) => parseSimpleXml(x) ?? xmlPeg.parse(x, { peg$silentFails: 1 })), () => xmls.forEach((x) => xmlPeg.parse(x, { peg$silentFails: 1 }))],
    calls: [() => texts.forEach((t) => scanCalls(t)), () => texts.forEach(peggyCalls)],
  };
  const out = {};
  for (const [name, [fast, grammar]] of Object.entries(rows)) {
    const turns = await inTurns(time(grammar), time(fast), rounds);
    const saved = turns.a.median - turns.b.median;
    out[name] = { grammar: turns.a, fast: turns.b, ratio: turns.ratio, savedMs: saved, shareOfBuild: saved / buildMs, matters: saved / buildMs >= MATTERS };
  }
  return { texts: texts.length, xmls: xmls.length, buildMs, rows: out };
}
