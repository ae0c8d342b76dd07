// A parallel build's sources reach build workers (shared-sources.ts): a text read from a file is read
// from it again and checked against the sha256 of what the build read first; other texts travel as
// UTF-8 in one shared buffer. Every field must come back as it was, texts that UTF-8 cannot carry stay
// strings, the sending thread's own objects read the same texts afterwards, and a file that changed
// in between fails the build instead of being compiled.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { dropReadAhead, readAhead, receiveSources, shareSources } from "../../src/builder/shared-sources.js";
import type { SourceFile } from "../../src/model/source.js";
import { OutputError } from "../../src/output/output-fs.js";
import { readProject } from "../../src/project/read-project.js";
import { factsOf } from "../../src/project/source-facts.js";
import { KeptSourceBytes } from "../../src/project/kept-bytes.js";

const sources = (): SourceFile[] => [
  { kind: "directive", id: "a/b", path: ".ai/directives/a/b.md", text: "plain ascii\n" },
  { kind: "knowledge", id: "k", path: ".ai/knowledge/k.md", ext: ".md", space: "user", text: "Grüße — 日本語 😀\r\n" },
  { kind: "tool", id: "t", path: ".ai/tools/t.py", ext: ".py", space: "system:x", text: "" },
  { kind: "directive", id: "lone", path: ".ai/directives/lone.md", text: "half a pair: \uD800 here" },
];

describe("shared sources", () => {
  test("come back field for field, on the receiving side and the sending side", () => {
    const sent = sources();
    const shared = shareSources(sent);
    // What a worker receives is a structured clone.
    const received = receiveSources(structuredClone(shared));
    const plain = sources();
    expect(received.map((s) => ({ ...s }))).toEqual(plain);
    expect(sent.map((s) => ({ ...s }))).toEqual(plain);
    expect(received.map((s) => Object.keys(s).sort())).toEqual(plain.map((s) => Object.keys(s).sort()));
  });

  test("hold each text once, as UTF-8; a lone surrogate stays a string", () => {
    const shared = shareSources(sources());
    const utf8 = sources().slice(0, 3).reduce((n, s) => n + Buffer.byteLength(s.text), 0);
    expect(shared.buffers.map((b) => b.byteLength)).toEqual([utf8]);
    expect(shared.entries[3]![5]).toBe("half a pair: \uD800 here");
  });

  test("a text assigned later is a plain value again", () => {
    const sent = sources();
    shareSources(sent);
    sent[0]!.text = "changed";
    expect(sent[0]!.text).toBe("changed");
    expect(Object.getOwnPropertyDescriptor(sent[0], "text")).toMatchObject({ value: "changed", writable: true });
  });
});

describe("sources read from files", () => {
  const root = mkdtempSync(join(tmpdir(), "rye-shared-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const sha = (text: string) => createHash("sha256").update(text).digest("hex");

  const project = (name: string, texts: Record<string, string>, keep?: KeptSourceBytes) => {
    const dir = join(root, name);
    mkdirSync(join(dir, ".ai", "directives"), { recursive: true });
    for (const [file, text] of Object.entries(texts)) writeFileSync(join(dir, ".ai", "directives", file), text);
    const read = readProject(dir, undefined, { rereadTexts: true, keep }).sources;
    return { dir, read, shared: shareSources(read, factsOf) };
  };

  test("whose bytes are kept travel as places in the buffers they were kept in, and read back as they were", () => {
    const texts = { "a.md": "\uFEFFwith a BOM\n", "b.md": "Grüße 😀\r\n", "c.md": "" };
    const { read, shared } = project("kept", texts, new KeptSourceBytes());
    expect(shared.buffers.map((b) => b.byteLength)).toEqual([0, 4 * 1024 * 1024]);
    expect(shared.entries.map((e) => e[5])).toEqual([
      [1, 0, 14],
      [1, 14, 28],
      [1, 28, 28],
    ]);
    const received = receiveSources(structuredClone(shared));
    expect(received.map((s) => s.text)).toEqual(Object.values(texts));
    expect(read.map((s) => s.text)).toEqual(Object.values(texts));
  });

  test("whose bytes are kept are the texts the build read and hashed, whatever the files hold since", () => {
    const { dir, read, shared } = project("kept-edited", { "a.md": "first\n", "b.md": "second\n" }, new KeptSourceBytes());
    const received = receiveSources(structuredClone(shared));
    writeFileSync(join(dir, ".ai", "directives", "a.md"), "FIRST, edited\n");
    unlinkSync(join(dir, ".ai", "directives", "b.md"));
    for (const side of [read, received]) expect(side.map((s) => s.text)).toEqual(["first\n", "second\n"]);
    for (const s of read) expect(sha(s.text)).toBe(factsOf(s)!.sha256);
  });

  test("beyond the kept bytes' budget are read from their files again, and checked", () => {
    // 6 + 7 bytes fit a budget of 14; the third file's 6 do not, the fourth's 1 still does.
    const keep = new KeptSourceBytes(14);
    const { dir, read, shared } = project("over", { "a.md": "first\n", "b.md": "second\n", "c.md": "third\n", "d.md": "\n" }, keep);
    expect(read.map((s) => factsOf(s)!.kept !== undefined)).toEqual([true, true, false, true]);
    const received = receiveSources(structuredClone(shared));
    for (const name of ["a.md", "c.md"]) writeFileSync(join(dir, ".ai", "directives", name), "edited\n");
    for (const side of [read, received]) {
      expect(side[0]!.text).toBe("first\n");
      expect(() => side[2]!.text).toThrow(expect.objectContaining({ code: "RYE8002", path: side[2]!.path }));
    }
  });

  test("are not copied into the buffer, and read back as they were on both sides", () => {
    const texts = { "a.md": "\uFEFFwith a BOM\n", "b.md": "Grüße 😀\r\n" };
    const { read, shared } = project("same", texts);
    expect(shared.buffers.map((b) => b.byteLength)).toEqual([0]);
    const received = receiveSources(structuredClone(shared));
    expect(received.map((s) => s.text)).toEqual(Object.values(texts));
    expect(read.map((s) => s.text)).toEqual(Object.values(texts));
  });

  test("fail with RYE8002 at the source when the file was edited, replaced or deleted since", () => {
    const { dir, read, shared } = project("changed", { "a.md": "first\n", "b.md": "second\n", "c.md": "third\n", "d.md": "fourth\n", "e.md": "fifth, long\n", "f.md": "" });
    const received = receiveSources(structuredClone(shared));
    const file = (name: string) => join(dir, ".ai", "directives", name);
    writeFileSync(file("a.md"), "first, and more\n");
    unlinkSync(file("b.md"));
    writeFileSync(file("d.md"), "FOURTH\n");
    writeFileSync(file("e.md"), "fifth\n");
    writeFileSync(file("f.md"), "empty no more\n");
    for (const i of [0, 1, 3, 4, 5]) for (const side of [read, received]) {
      let thrown: unknown;
      try {
        void side[i]!.text;
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(OutputError);
      expect(thrown).toMatchObject({ code: "RYE8002", path: side[i]!.path });
      expect((thrown as Error).message).toContain("changed while the build was reading it");
    }
    expect(received[2]!.text).toBe("third\n");
  });

  test("read ahead, give each text read ahead once, then read the file again", () => {
    const { dir, read, shared } = project("ahead", { "a.md": "first\n", "b.md": "second\n", "c.md": "third\n" });
    const received = receiveSources(structuredClone(shared));
    const file = (name: string) => join(dir, ".ai", "directives", name);
    try {
      readAhead([read[0]!, received[1]!]);
      // What was read ahead is what the build read first: an edit after it reaches the next read only.
      writeFileSync(file("a.md"), "FIRST\n");
      writeFileSync(file("b.md"), "SECOND\n");
      expect(read[0]!.text).toBe("first\n");
      expect(received[1]!.text).toBe("second\n");
      expect(() => read[0]!.text).toThrow(/changed while the build was reading it/);
      expect(() => received[1]!.text).toThrow(/changed while the build was reading it/);
      // A file that changed before the read ahead fails where its text is used, as without it.
      writeFileSync(file("c.md"), "THIRD\n");
      expect(() => readAhead([read[2]!, received[2]!])).not.toThrow();
      for (const side of [read, received]) expect(() => side[2]!.text).toThrow(expect.objectContaining({ code: "RYE8002", path: side[2]!.path }));
    } finally {
      dropReadAhead();
    }
  });

  test("leave texts that are not read again from a file alone, and forget what was read ahead when told", () => {
    const plain = sources();
    const onThread = receiveSources(structuredClone(shareSources(plain)));
    readAhead([...plain, ...onThread]);
    expect(onThread.map((s) => s.text)).toEqual(sources().map((s) => s.text));
    const { dir, read } = project("forget", { "a.md": "kept?\n" });
    readAhead(read);
    dropReadAhead();
    writeFileSync(join(dir, ".ai", "directives", "a.md"), "no\n");
    expect(() => read[0]!.text).toThrow(/changed while the build was reading it/);
  });

  test.skipIf(process.platform === "win32")("fail, without waiting, when a FIFO took the file's place", () => {
    const { dir, read } = project("fifo", { "a.md": "text\n" });
    const file = join(dir, ".ai", "directives", "a.md");
    unlinkSync(file);
    execFileSync("mkfifo", [file]);
    expect(() => read[0]!.text).toThrow(/changed while the build was reading it/);
  });

  test("only sources readProject read to read again have a file, and keep it until a text is assigned", () => {
    const { dir, read } = project("made", { "a.md": "x\n" });
    expect(factsOf(read[0]!)?.file).toBe(join(root, "made", ".ai", "directives", "a.md"));
    expect(factsOf({ kind: "directive", id: "a", path: "a.md", text: "x\n" })).toBeUndefined();
    expect(factsOf(readProject(dir).sources[0]!)).toBeUndefined();
    read[0]!.text = "other\n";
    expect(factsOf(read[0]!)).toBeUndefined();
    expect(read[0]!.text).toBe("other\n");
  });

  test("record what a build asks of each before it holds no text: size, sha256, signature timestamp", () => {
    const signed = "<!-- rye:signed:2026-03-04T05:06:07Z:" + "a".repeat(64) + ":sig:fp -->\n# d\n";
    const texts = { "bom.md": "\uFEFFGrüße 😀\r\n", "signed.md": signed, "late.md": "x".repeat(600) + "rye:signed:\n", "empty.md": "" };
    const { read } = project("facts", texts);
    const byId = new Map(read.map((s) => [s.id, s]));
    for (const [file, text] of Object.entries(texts)) {
      const facts = factsOf(byId.get(file.slice(0, -3))!)!;
      expect(facts).toMatchObject({ size: Buffer.byteLength(text), sha256: sha(text) });
    }
    expect(factsOf(byId.get("signed")!)).toMatchObject({ stamp: "2026-03-04T05:06:07Z", signed: true });
    expect(factsOf(byId.get("bom")!)).toMatchObject({ stamp: null, signed: false });
    // Past the first 512 characters a signature is not looked for, as with the text in hand.
    expect(factsOf(byId.get("late")!)).toMatchObject({ stamp: null, signed: false });
  });

  // V8 turns an object whose accessor is a closure of its own into a dictionary of properties, and
  // every read of a source's kind, id or path then takes the slowest path (3-4 % of a cold build's
  // CPU); an object copied by a spread and then given a property gets a shape of its own once the
  // spread's inline cache is warm, after about eight objects (every source had one: ~11 % of a cold
  // build's CPU). Forty files, so both would show. Checked on the compiled modules (`npm test`
  // builds them first) with V8's own test hooks.
  test("keep fast properties and one shape, on the reading side and the receiving side", () => {
    const names = Array.from({ length: 40 }, (_, i) => `f${String(i).padStart(2, "0")}.md`);
    project("shape", Object.fromEntries(names.map((n, i) => [n, `text ${i}\n`])));
    const dist = (rel: string) => JSON.stringify(new URL(`../../dist/${rel}`, import.meta.url).href);
    // Each way in a process of its own, as each build worker is a new thread.
    const script = (kept: boolean) => `
      const { readProject } = await import(${dist("project/read-project.js")});
      const { shareSources, receiveSources } = await import(${dist("builder/shared-sources.js")});
      const { factsOf } = await import(${dist("project/source-facts.js")});
      const { KeptSourceBytes } = await import(${dist("project/kept-bytes.js")});
      const keep = ${kept} ? new KeptSourceBytes() : undefined;
      const read = readProject(${JSON.stringify(join(root, "shape"))}, undefined, { rereadTexts: true, keep }).sources;
      const received = receiveSources(structuredClone(shareSources(read, factsOf)));
      const check = (list) => ({ fast: list.map((s) => %HasFastProperties(s)), same: list.every((s) => %HaveSameMap(s, list[0])), texts: list.map((s) => s.text) });
      console.log(JSON.stringify({ kept: read.every((s) => factsOf(s).kept !== undefined), read: check(read), received: check(received) }));
    `;
    const run = (kept: boolean) => JSON.parse(execFileSync(process.execPath, ["--allow-natives-syntax", "--input-type=module", "-e", script(kept)], { encoding: "utf8" })) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const kept of [false, true]) {
      const { kept: all, ...sides } = run(kept);
      expect(all).toBe(kept);
      for (const [side, seen] of Object.entries(sides)) out[`${kept ? "kept" : "read again"}, ${side}`] = seen;
    }
    expect(Object.keys(out)).toEqual(["read again, read", "read again, received", "kept, read", "kept, received"]);
    const texts = names.map((_, i) => `text ${i}\n`);
    for (const side of Object.keys(out)) expect(out[side], side).toEqual({ fast: texts.map(() => true), same: true, texts });
  });
});
