// A deterministic synthetic Rye project for benchmarks: N directives (and N/20 knowledge items) with
// the sizes and features of the real corpus (inputs of every type, defaults, permissions, outputs,
// extends chains, <context> knowledge, hooks, backtick calls between directives, tools, optional
// placeholders). Same N and seed → byte-identical files.
// Usage: node scripts/gen-corpus.mjs <dir> [count=1000] [seed=1]
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** mulberry32: small, fast, and the same sequence on every platform. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "review change file thread agent tool registry bundle manifest signature directive knowledge " +
  "context system prompt input output state graph step validate summary report plan execute search " +
  "load fetch sign path project space user cache build module server request response status error " +
  "retry limit token model tier turn budget diff commit branch release note section item entry"
).split(" ");
const TYPES = ["string", "string", "string", "integer", "boolean", "object", "array", "number"];
/** A call parameter's literal of `type`, made from a word (one random draw whatever the type, so the rest of the corpus stays the same). */
const literalOf = (type, word) =>
  ({ integer: `${word.length}`, number: `${word.length}.5`, boolean: "true", object: `{"note": "${word}"}`, array: `["${word}"]` })[type] ?? `"${word}"`;
const CATEGORIES = ["rye/core", "rye/agent", "rye/mcp", "rye/file-system", "rye/web", "rye/code", "rye/email", "bench/ops"];
const CAPS = [["execute", "directive", "bench.*"], ["execute", "tool", "rye.file-system.*"], ["load", "knowledge", "bench.*"], ["fetch", "knowledge", "bench.*"], ["search", "knowledge", "*"]];

/** Writes the project under `dir/.ai` and returns the number of files written. */
export function generateCorpus(dir, count, seed = 1) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const sentence = (n) => {
    const s = words(n);
    return `${s[0].toUpperCase()}${s.slice(1)}.`;
  };
  const ai = join(dir, ".ai");
  rmSync(ai, { recursive: true, force: true });
  const files = new Map();
  const nKnowledge = Math.max(2, Math.floor(count / 20));
  const kid = (i) => `bench/k${Math.floor(i / 100)}/note_${i}`;
  const did = (i) => `bench/g${Math.floor(i / 100)}/task_${i}`;

  for (let i = 0; i < nKnowledge; i++) {
    const name = `note_${i}`;
    const paras = Array.from({ length: int(2, 6) }, () => `${sentence(int(12, 40))} ${sentence(int(8, 30))}`).join("\n\n");
    files.set(`knowledge/${kid(i)}.md`, `<!-- rye:unsigned -->

\`\`\`yaml
name: ${name}
title: ${sentence(4).slice(0, -1)}
entry_type: reference
category: ${pick(CATEGORIES)}
version: "1.${i % 7}.0"
author: rye-bench
tags:
  - ${pick(WORDS)}
  - ${pick(WORDS)}
\`\`\`

# ${sentence(3).slice(0, -1)}

${paras}

- ${sentence(6)}
- ${sentence(8)}
`);
  }
  // One tool so calls to it resolve.
  files.set("tools/rye/file-system/read.py", `__version__ = "1.0.0"\n__tool_type__ = "python"\n__category__ = "rye/file-system"\n__tool_description__ = "Read a file"\n\ndef execute(params, project_path):\n    return {"success": True}\n`);

  const declared = [];
  for (let i = 0; i < count; i++) {
    const id = did(i);
    const name = `task_${i}`;
    const nInputs = int(0, 9);
    const inputs = [];
    const seen = new Set();
    for (let j = 0; j < nInputs; j++) {
      let n = `${pick(WORDS)}_${pick(WORDS)}`;
      while (seen.has(n)) n += "_x";
      seen.add(n);
      const type = pick(TYPES);
      const required = r() < 0.45;
      let def = "";
      if (!required && r() < 0.4) def = type === "integer" ? ` default="${int(1, 90)}"` : type === "boolean" ? ` default="true"` : type === "string" ? ` default="${pick(WORDS)}"` : "";
      inputs.push({ name: n, type, required, def });
    }
    declared.push(inputs);
    // Every tenth directive extends an earlier one (chains up to a few deep); some carry context.
    const parent = i >= 10 && i % 10 === 0 ? did(int(Math.max(0, i - 40), i - 1)) : null;
    const where = pick(["system", "before", "after"]);
    const ctx = r() < 0.3 ? `    <context>\n      <${where}>${kid(int(0, nKnowledge - 1))}</${where}>\n    </context>\n` : "";
    const hook = r() < 0.05 ? `    <hooks>\n      <hook id="h_${i}" event="thread_started" position="before">\n        <condition path="directive" op="contains" value="task" />\n        <action primary="execute" item_type="knowledge" item_id="${kid(int(0, nKnowledge - 1))}" />\n      </hook>\n    </hooks>\n` : "";
    // Most directives grant what their calls need; a few do not, as in the real corpus (RYE6005).
    const caps = r() < 0.97 ? CAPS.filter((_, k) => k < 2 || r() < 0.4) : r() < 0.5 ? [CAPS[2]] : [];
    const perms = caps.length ? `    <permissions>\n${caps.map(([verb, kind, pat]) => `      <${verb}>\n        <${kind}>${pat}</${kind}>\n      </${verb}>`).join("\n")}\n    </permissions>\n` : "";
    const inputXml = inputs.length
      ? `  <inputs>\n${inputs.map((x) => `    <input name="${x.name}" type="${x.type}" required="${x.required}"${x.def}>${sentence(int(3, 9))}</input>`).join("\n")}\n  </inputs>\n\n`
      : "";
    const outputs = Array.from({ length: int(1, 3) }, (_, j) => `    <output name="out_${j}"${r() < 0.5 ? ' required="true"' : ""}>${sentence(int(3, 8))}</output>`).join("\n");
    const ref = (x) => (x.required ? `{input:${x.name}}` : r() < 0.5 ? `{input:${x.name}?}` : `{input:${x.name}:${pick(WORDS)}}`);
    const steps = [];
    const nSteps = int(2, 9);
    for (let s = 0; s < nSteps; s++) {
      const lines = [`    ${sentence(int(8, 30))}`];
      for (const x of inputs) if (r() < 0.5) lines.push(`    Use ${ref(x)} for the ${pick(WORDS)}.`);
      if (r() < 0.3) lines.push(`    ${sentence(int(10, 40))} ${sentence(int(10, 30))}`);
      if (r() < 0.12 && i > 0) {
        // A call to an earlier directive, passing its required inputs, each a literal of its declared type.
        const t = int(Math.max(0, i - 200), i - 1);
        const params = declared[t].filter((x) => x.required).map((x) => `"${x.name}": ${literalOf(x.type, pick(WORDS))}`).join(", ");
        lines.push(`    \`rye_execute(item_type="directive", item_id="${did(t)}", parameters={${params}})\``);
      } else if (r() < 0.1) {
        lines.push(`    \`rye_execute(item_type="tool", item_id="rye/file-system/read", parameters={"path": "${pick(WORDS)}.md"})\``);
      }
      if (r() < 0.1) lines.push(`    Report progress as {output:out_0}.`);
      steps.push(`  <step name="step_${s}">\n${lines.join("\n")}\n  </step>`);
    }
    // Nearly every declared input is used somewhere (an unused one is a RYE2002 warning).
    const rest = inputs.filter((x) => !steps.some((t) => t.includes(`{input:${x.name}`)) && r() < 0.97);
    if (rest.length) steps.push(`  <step name="finish">\n    Finish with ${rest.map(ref).join(", ")}.\n  </step>`);
    files.set(`directives/${id}.md`, `<!-- rye:unsigned -->
# ${sentence(3).slice(0, -1)}

${sentence(int(8, 24))}

\`\`\`xml
<directive name="${name}" version="1.${i % 5}.${i % 3}"${parent ? ` extends="${parent}"` : ""}>
  <metadata>
    <description>${sentence(int(6, 18))}</description>
    <category>${pick(CATEGORIES)}</category>
    <author>rye-bench</author>
    <model tier="${pick(["fast", "general", "orchestrator"])}" />
    <limits max_turns="${int(2, 20)}" max_tokens="${int(2, 32) * 1024}" />
${perms}${ctx}${hook}  </metadata>

${inputXml}  <outputs>
${outputs}
  </outputs>
</directive>
\`\`\`

<process>
${steps.join("\n\n")}
</process>
`);
  }
  for (const [rel, text] of files) {
    const path = join(ai, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return files.size;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, count = "1000", seed = "1"] = process.argv.slice(2);
  if (!dir) {
    console.error("Usage: node scripts/gen-corpus.mjs <dir> [count=1000] [seed=1]");
    process.exit(2);
  }
  const n = generateCorpus(dir, Number(count), Number(seed));
  console.log(`Wrote ${n} files under ${join(dir, ".ai")}`);
}
