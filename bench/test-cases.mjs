// One prompt test per directive of a generated project (`.ai/tests/directives/<id>.test.yaml`): its
// required inputs given a value of their declared type, and one expectation on the body, so that
// `rye test` validates, renders and checks every directive once.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const VALUE = { integer: "3", number: "1.5", boolean: "true", object: "{note: a}", array: "[a]" };

/** Writes the test files; returns how many cases. */
export function writeTestCases(project) {
  const root = join(project, ".ai", "directives");
  const walk = (d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith(".md") ? [join(d, e.name)] : []));
  let cases = 0;
  for (const file of walk(root)) {
    const text = readFileSync(file, "utf8");
    const required = [...text.matchAll(/<input name="([^"]+)" type="([^"]+)" required="true"/g)].map(([, name, type]) => `      ${name}: ${VALUE[type] ?? "a"}`);
    const id = relative(root, file).slice(0, -3);
    const out = join(project, ".ai", "tests", "directives", `${id}.test.yaml`);
    mkdirSync(dirname(out), { recursive: true });
    const inputs = required.length > 0 ? `    inputs:\n${required.join("\n")}\n` : "";
    writeFileSync(out, `cases:\n  - name: renders\n${inputs}    expect:\n      body:\n        contains: "step_0"\n`);
    cases++;
  }
  return cases;
}
