// Reads the project's configuration: rye.config.json at the project root, else the "rye" object of
// its package.json. Problems are located diagnostics in that file, never exceptions.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import type { Node, Pair } from "yaml";
import * as d from "../diagnostics/codes.js";
import { LineIndex, type Diagnostic, type Location } from "../diagnostics/diagnostic.js";
import { didYouMean } from "../runtime/did-you-mean.js";
import { CONFIG_KEYS, type RyeConfig } from "./config-keys.js";

let yamlModule: typeof import("yaml") | undefined;

/**
 * The yaml package (for the place of every key), loaded when a config file is first read: most
 * builds have none. In the CLI bundle `require` exists and esbuild bundles this call
 * (scripts/bundle-cli.mjs); dist/'s plain ES modules have no `require`, so Node's loads it.
 */
function yaml(): typeof import("yaml") {
  return (yamlModule ??= (typeof require === "function" ? require("yaml") : createRequire(import.meta.url)("yaml")) as typeof import("yaml"));
}

/** The configuration found for a project, where it came from, and what was wrong with it. */
export interface ProjectConfig {
  config: RyeConfig;
  /** The file it was read from (project-relative), or null when the project has none. */
  source: string | null;
  diagnostics: Diagnostic[];
}

/** Reads `<project>/rye.config.json`, else the `"rye"` key of `<project>/package.json`. */
export function readConfig(project: string): ProjectConfig {
  for (const [name, key] of [["rye.config.json", null], ["package.json", "rye"]] as const) {
    const path = join(project, name);
    if (!existsSync(path)) continue;
    const parsed = parseConfigText(readFileSync(path, "utf8"), name, key);
    if (parsed) return parsed;
  }
  return { config: {}, source: null, diagnostics: [] };
}

/**
 * Parses a config file's text; `key` names the object inside it that holds the settings (package.json),
 * null for the whole file. Returns null when `key` is given and absent.
 */
export function parseConfigText(text: string, source: string, key: string | null): ProjectConfig | null {
  const lines = new LineIndex(text);
  try {
    JSON.parse(text);
  } catch (e) {
    const at = Number(/position (\d+)/.exec((e as Error).message)?.[1] ?? 0);
    return { config: {}, source, diagnostics: [d.invalidConfig(lines.location(source, at, Math.min(at + 1, text.length)), (e as Error).message)] };
  }
  let root: unknown = yaml().parseDocument(text).contents;
  if (key !== null) {
    const pair = yaml().isMap(root) ? root.items.find((p) => yaml().isScalar(p.key) && p.key.value === key) : undefined;
    if (!pair) return null;
    root = pair.value;
  }
  const diagnostics: Diagnostic[] = [];
  const at = (node: Node | null | undefined): Location => {
    const [start, end] = node?.range ?? [0, 0];
    return lines.location(source, start, end);
  };
  if (!yaml().isMap(root)) return { config: {}, source, diagnostics: [d.invalidConfig(at(root as Node), "the configuration must be a JSON object")] };
  const config: Record<string, unknown> = {};
  for (const pair of root.items as Pair<Node, Node>[]) readSetting(pair, config, diagnostics, at);
  return { config: config as RyeConfig, source, diagnostics };
}

function readSetting(pair: Pair<Node, Node>, into: Record<string, unknown>, out: Diagnostic[], at: (n: Node | null | undefined) => Location): void {
  const name = String(yaml().isScalar(pair.key) ? pair.key.value : "");
  if (name === "$schema") return;
  if (!Object.hasOwn(CONFIG_KEYS, name)) {
    out.push(d.unknownConfigKey(at(pair.key), name, didYouMean(name, Object.keys(CONFIG_KEYS))));
    return;
  }
  const [kind] = CONFIG_KEYS[name as keyof RyeConfig];
  const value = pair.value?.toJSON();
  const fits =
    kind === "string[]" ? yaml().isSeq(pair.value) && (value as unknown[]).every((v) => typeof v === "string") : typeof value === kind;
  if (!fits) out.push(d.invalidConfig(at(pair.value), `'${name}' takes ${kind === "string[]" ? "an array of strings" : `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}`}`));
  else into[name] = value;
}
