// Imports a build output's registry and every module it names: what an application pays to load
// compiled directives. The bench runs it with and without `--import rye-build/register` in turns.
// Usage: node [--import …/register/index.js] bench/load-output.mjs <out>
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const { directives } = await import(pathToFileURL(join(process.argv[2], "index.js")).href);
process.stdout.write(`${Object.keys(directives).length} directives loaded\n`);
