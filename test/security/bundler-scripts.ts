// The scripts that bundle a consumer of out/ with each verifying plugin, shared by the bundler tests.

export const ESBUILD = (platform: string, outfile: string) => `import * as esbuild from "esbuild";
import { ryeVerify } from "rye-build/esbuild";
await esbuild.build({ entryPoints: ["app.mjs"], bundle: true, platform: ${JSON.stringify(platform)}, format: "esm", outfile: ${JSON.stringify(outfile)}, plugins: [ryeVerify()], logLevel: "silent" });
`;

export const VITE = (outDir: string, entry = "app.mjs") => `import { build } from "vite";
import { ryeVerify } from "rye-build/vite";
await build({ root: process.cwd(), configFile: false, logLevel: "silent", plugins: [ryeVerify()], build: { ssr: ${JSON.stringify(entry)}, outDir: ${JSON.stringify(outDir)}, emptyOutDir: true, minify: false } });
`;

/** The Vite dev server: the transform a browser request gets, or ssrLoadModule; prints what it produced. */
export const VITE_DEV = (what: string) => `import { createServer } from "vite";
import { ryeVerify } from "rye-build/vite";
const server = await createServer({ root: process.cwd(), configFile: false, logLevel: "silent", plugins: [ryeVerify()], appType: "custom",
  server: { middlewareMode: true, hmr: false, ws: false }, optimizeDeps: { noDiscovery: true, include: [] } });
try {
  ${what}
} finally {
  await server.close();
}
`;
// The apps print their render as they are evaluated.
export const DEV_RENDER = `await server.ssrLoadModule(ENTRY);`;

/** A Vite build for the browser (library mode, one ES module): what a client bundle of out/ holds. */
export const VITE_BROWSER = `import { build } from "vite";
import { ryeVerify } from "rye-build/vite";
await build({ root: process.cwd(), configFile: false, logLevel: "silent", plugins: [ryeVerify()], build: { lib: { entry: "app.mjs", formats: ["es"], fileName: "app" }, outDir: "dist-vite-browser", emptyOutDir: true, minify: false } });
`;

export const ROLLUP = `import { rollup } from "rollup";
import { ryeVerify } from "rye-build/rollup";
const b = await rollup({ input: "app.mjs", plugins: [ryeVerify()], external: (id) => id.startsWith("node:"), onwarn() {} });
await b.write({ file: "dist-rollup/app.mjs", format: "es", inlineDynamicImports: true });
`;

/** webpack and Rspack share one configuration: an ES module bundle for Node, no cache, nothing emitted on errors. */
export const WEBPACK_LIKE = (imports: string, outDir: string, entry = "app.mjs", externals: string[] = []) => `${imports}
const kept = ${JSON.stringify(externals)};
const config = { mode: "none", context: process.cwd(), entry: "./${entry}", target: "node", cache: false,
  output: { path: process.cwd() + "/${outDir}", filename: "app.mjs", module: true, library: { type: "module" }, chunkFormat: "module" },
  experiments: { outputModule: true }, externalsType: "module", externals: [({ request }, cb) => (request.startsWith("node:") || kept.includes(request) ? cb(null, "module " + request) : cb())],
  plugins: [ryeVerify()], optimization: { splitChunks: false, emitOnErrors: false } };
const stats = await new Promise((ok, fail) => bundler(config, (e, s) => (e ? fail(e) : ok(s))));
if (stats.hasErrors()) { console.error(stats.toString("errors-only")); process.exit(1); }
`;

/**
 * Rollup with `plugin` (an expression; the verifying one by default) and, when `nodeResolve`, a small
 * resolver standing in for @rollup/plugin-node-resolve: a relative request is resolved as Node's
 * require.resolve does (a folder through its package.json "main", then index.js). Rollup leaves a bare
 * import it cannot resolve external, with a warning only.
 */
export const ROLLUP_WITH = (input: string, file: string, opts: { nodeResolve?: boolean; plugin?: string } = {}) => `import { rollup } from "rollup";
import { createRequire } from "node:module";
import { ryeVerify } from "rye-build/rollup";
const nodeResolve = { name: "node-style-resolve", resolveId(source, importer) {
  if (!importer || !/^\\.\\.?(\\/|$)/.test(source)) return null;
  try { return createRequire(importer).resolve(source); } catch { return null; }
} };
const b = await rollup({ input: ${JSON.stringify(input)}, plugins: [${opts.plugin ?? "ryeVerify()"}${opts.nodeResolve ? ", nodeResolve" : ""}].filter(Boolean), external: (id) => id.startsWith("node:"), onwarn() {} });
await b.write({ file: ${JSON.stringify(file)}, format: "es", inlineDynamicImports: true });
`;

/** Rolldown with the verifying unplugin (or none), keeping `external` external. */
export const ROLLDOWN = (input: string, file: string, external: string[] = [], plugin = true) => `import { rolldown } from "rolldown";
import { ryeUnplugin } from "rye-build/unplugin";
const b = await rolldown({ input: ${JSON.stringify(input)}, platform: "node", plugins: ${plugin ? "[ryeUnplugin.rolldown()]" : "[]"}, external: (id) => id.startsWith("node:") || ${JSON.stringify(external)}.includes(id), onLog() {} });
await b.write({ file: ${JSON.stringify(file)}, format: "es", codeSplitting: false });
`;
