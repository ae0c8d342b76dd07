// The real project the start-up rows build: the oldest corpus bundle, made to build clean the way a
// user would, so that the rows time a build that writes its output. Two kinds of error are handled:
//   RYE4009, a tool edited after it was signed: re-signed with the bench's own key (`rye sign`);
//   RYE4001, a tool whose executor is in no space (three sinks naming an executor `python` that the
//            bundle does not hold): removed, since nothing could ever run them;
//   RYE4012, a runtime that passes a value into program text the build never sees (the bash runtime,
//            whose script is the caller's `{command}`): removed, as no tool of the bundle uses it;
//   RYE6006, a guide whose example call leaves out a parameter the tool requires: removed, as a user
//            would fix the example by hand.
// Anything else left is a failure of the bench. Without ../shared, the example project stands in.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

const HANDLED = new Set(["RYE4009", "RYE4001", "RYE4012", "RYE6006"]);
/** Errors a user would settle by removing the item (nothing in the bundle needs it, or it is an example). */
const REMOVED = new Set(["RYE4001", "RYE4012", "RYE6006"]);

/** Copies the project and returns { dir, name, handled: [lines saying what was changed] }. */
export function realProject(root, shared, work, rye, env) {
  const corpus = join(shared, "corpus", "rye-2026-02", "system");
  const dir = join(work, "real");
  if (!existsSync(corpus)) {
    cpSync(join(root, ".ai"), join(dir, ".ai"), { recursive: true });
    return { dir, name: "the example project .ai/ (../shared absent)", handled: [] };
  }
  cpSync(join(corpus, ".ai"), join(dir, ".ai"), { recursive: true });
  const run = (...args) => spawnSync(process.execPath, [rye, ...args], { cwd: dir, env, encoding: "utf8", maxBuffer: 1 << 26 });
  const report = JSON.parse(run("build", "--json", "--project", dir).stdout);
  const errors = report.diagnostics.filter((d) => d.severity === "error");
  const unhandled = errors.filter((d) => !HANDLED.has(d.code));
  if (unhandled.length > 0) throw new Error(`the real project has errors the bench does not handle:\n${unhandled.map((d) => `${d.code} ${d.message}`).join("\n")}`);
  const handled = [];
  const stale = errors.filter((d) => d.code === "RYE4009").map((d) => /rye sign (\S+)\)/.exec(d.message)?.[1]);
  if (stale.length > 0) {
    const signed = run("sign", ...stale);
    if (signed.status !== 0) throw new Error(`rye sign failed:\n${signed.stdout}${signed.stderr}`);
    handled.push(`re-signed ${stale.length} tools edited after signing (${stale.join(", ")})`);
  }
  for (const code of REMOVED) {
    const files = [...new Set(errors.filter((d) => d.code === code).map((d) => d.loc.source))];
    for (const file of files) rmSync(isAbsolute(file) ? file : resolve(dir, file)); // paths are relative to the build's cwd
    if (files.length > 0) handled.push(`removed ${files.length} item${files.length === 1 ? "" : "s"} with ${code} (${files.map((f) => f.replace(/^.*\.ai\//, "")).join(", ")})`);
  }
  rmSync(join(dir, "out"), { recursive: true, force: true });
  rmSync(join(dir, ".rye-cache"), { recursive: true, force: true });
  return { dir, name: "rye-2026-02/system (corpus)", handled };
}
