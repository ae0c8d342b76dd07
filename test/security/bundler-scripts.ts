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
export const WEBPACK_LIKE = (imports: string, outDir: string) => `${imports}
const config = { mode: "none", context: process.cwd(), entry: "./app.mjs", target: "node", cache: false,
  output: { path: process.cwd() + "/${outDir}", filename: "app.mjs", module: true, library: { type: "module" }, chunkFormat: "module" },
  experiments: { outputModule: true }, externalsType: "module", externals: [({ request }, cb) => (request.startsWith("node:") ? cb(null, "module " + request) : cb())],
  plugins: [ryeVerify()], optimization: { splitChunks: false, emitOnErrors: false } };
const stats = await new Promise((ok, fail) => bundler(config, (e, s) => (e ? fail(e) : ok(s))));
if (stats.hasErrors()) { console.error(stats.toString("errors-only")); process.exit(1); }
`;
