import { isScalar, Schema } from "yaml";
import type { YamlScalars } from "./read-block-yaml.js";

interface ScalarTag {
  default?: boolean | "key";
  test?: RegExp;
  resolve(text: string, onError: (message: string) => void, options: { intAsBigInt: boolean }): unknown;
}

let tags: ScalarTag[] | undefined;

/** The tags `parse(text, { version: "1.1" })` tries on a plain scalar, in its order. */
function plainTags(): ScalarTag[] {
  tags ??= (new Schema({ schema: "yaml-1.1", resolveKnownTags: false }).tags as ScalarTag[]).filter((t) => t.default === true && t.test);
  return tags;
}

/**
 * The yaml package's `parse(text, { version: "1.1" })`, which knowledge metadata is read with, for the
 * quick block reader: its own scalar tags resolve each plain scalar, and pairs are added as its
 * conversion to plain objects adds them. Duplicate keys (an error there), keys that are not scalars
 * (a timestamp key) and tag errors give up, leaving the text to the package itself.
 */
export const YAML_1_1: YamlScalars = {
  plain(text) {
    const tag = plainTags().find((t) => t.test!.test(text));
    if (!tag) return text;
    let failed = false;
    const resolved = tag.resolve(text, () => (failed = true), { intAsBigInt: false });
    // Booleans come wrapped in a scalar node; timestamps are Dates, which `parse` keeps.
    const value = isScalar(resolved) ? resolved.value : resolved;
    return failed || (value !== null && typeof value === "object" && !(value instanceof Date)) ? undefined : value;
  },
  set(map, key, value) {
    if (key !== null && typeof key === "object") return false;
    const name = key === null ? "" : String(key);
    if (Object.hasOwn(map, name)) return false;
    // An inherited name (`__proto__`, `toString`) becomes an own property, as the package makes it.
    if (name in map) Object.defineProperty(map, name, { value, writable: true, enumerable: true, configurable: true });
    else map[name] = value;
    return true;
  },
  document: (value) => value,
};
