// One `rye build` inside a fresh process, reporting the in-process time (excluding node start-up and
// module loading), the CPU time of all its threads in that time, and the process's peak RSS as a JSON line on stdout. With --touch FILE it first
// builds, then appends a line to FILE and builds again in the same process, as --watch does on a
// change (same process, same in-memory state), and reports the second build.
// Usage: node bench/build-child.mjs <project> [--touch FILE]
import { appendFileSync } from "node:fs";
import { Writable } from "node:stream";

const [project, flag, file] = process.argv.slice(2);
const { main } = await import("../dist/cli/main.js");
const { runOnce } = await import("../dist/cli/commands/build-once.js");
const { spacesFrom } = await import("../dist/project/read-spaces.js");
const { WatchedSources } = await import("../dist/watch/watch-sources.js");
let stdout = "";
const sink = (keep) => Object.assign(new Writable({ write: (chunk, _enc, cb) => (keep && (stdout += chunk), cb()) }), { isTTY: false });
const io = { stdout: sink(true), stderr: sink(false), cwd: project, env: process.env };

const spaces = spacesFrom(project, {}, project, process.env);
const watched = new WatchedSources(spaces);
const options = { project, outDir: `${project}/out`, spaces, memo: {}, read: () => watched.read() };
if (flag === "--touch") {
  runOnce(options, io, false);
  appendFileSync(file, "\nOne more line.\n");
  watched.touch(file); // what the watcher reports
  stdout = "";
}
const started = performance.now();
const cpuBefore = process.cpuUsage();
const code = flag === "--touch" ? runOnce(options, io, false) : await main(["build", "--project", project], io);
const ms = performance.now() - started;
// User and system time of every thread of the process (build workers included).
const cpu = process.cpuUsage(cpuBefore);
const written = Number(/\((\d+) files written\)/.exec(stdout)?.[1] ?? NaN);
const threads = Number(/ on (\d+) threads/.exec(stdout)?.[1] ?? 1);
process.stdout.write(`${JSON.stringify({ code, ms, cpuMs: (cpu.user + cpu.system) / 1000, written, threads, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
