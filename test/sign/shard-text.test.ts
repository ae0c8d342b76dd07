import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { serializeShard, type Shard } from "../../src/sign/sign-manifest.js";

// A shard's text in the canonical form docs/signing.md gives the root manifest (keys sorted,
// one-space JSON, a final newline), with the fields of its shard example. Written the slow, obvious way.
function canonical(shard: Shard): string {
  const sortedObject = <T>(o: Record<string, T>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]!]));
  return `${JSON.stringify({ folder: shard.folder, files: sortedObject(shard.files), items: sortedObject(shard.items) }, null, 1)}\n`;
}

const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
// Output file names: what a shard lists (modules and declarations), quotes and non-ASCII included.
const fileName = fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom(".js", ".d.ts")).map(([stem, ext]) => `${stem}${ext}`);

describe("serializeShard", () => {
  it("writes the canonical text: keys sorted, one-space JSON, a final newline", () => {
    const shard: Shard = {
      folder: "directives/ops",
      files: { "z.js": "1".repeat(64), "a.d.ts": "2".repeat(64), "a.js": "3".repeat(64) },
      items: { "z.js": ["ops/z", "4".repeat(64)], "a.js": ["ops/a", "5".repeat(64)] },
    };
    const text = serializeShard(shard);
    expect(text).toBe(canonical(shard));
    expect(text.indexOf('"a.d.ts"')).toBeLessThan(text.indexOf('"a.js"'));
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("matches the canonical text for any set of module and declaration names", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.dictionary(fileName, hex, { maxKeys: 30 }), fc.array(fc.tuple(fc.string(), hex), { maxLength: 30 }), (folder, files, ids) => {
        const items: Shard["items"] = {};
        Object.keys(files).forEach((name, i) => {
          if (name.endsWith(".js") && ids[i]) items[name] = ids[i]!;
        });
        const shard = { folder, files, items };
        expect(serializeShard(shard)).toBe(canonical(shard));
      }),
    );
  });

  it("writes empty files and items as {}", () => {
    const shard: Shard = { folder: "knowledge", files: {}, items: {} };
    expect(serializeShard(shard)).toBe('{\n "folder": "knowledge",\n "files": {},\n "items": {}\n}\n');
  });
});
