/**
 * The original masks `<template>`, `<example>` and `<raw>` sections before XML parsing so their
 * content need not be well-formed, returning the content under `templates`. It iterates a Python
 * set, so its numbering order varies between runs; we fix the order template, example, raw
 * (decisions.md: a documented fixed order wherever the original's was a set).
 */
const OPAQUE_TAGS = ["template", "example", "raw"] as const;

/** One replacement, in the coordinates of the string as it was when it was applied. */
interface Edit {
  start: number;
  oldLength: number;
  newLength: number;
}

/**
 * Replacements made in one pass, left to right and apart, each `start` in the coordinates of the
 * string with the ones before it made; `shift[i]` is what edits 0..i-1 added to the offsets after them.
 */
interface Batch {
  edits: Edit[];
  shift: number[];
}

/** One `<tag…>body</tag>` the original's pattern matches: where it and its body are. */
interface Section {
  start: number;
  end: number;
  bodyStart: number;
  bodyEnd: number;
}

export interface Masked {
  masked: string;
  templates: Record<string, string>;
  /** Maps an offset in `masked` back to the unmasked text (inside a mask: its start). */
  unmask(offset: number): number;
}

/** Masks opaque sections as the original does, keeping a log to map locations back. */
export function maskOpaque(xml: string): Masked {
  const batches: Batch[] = [];
  const templates: Record<string, string> = {};
  let masked = xml;
  let counter = 0;
  for (const tag of OPAQUE_TAGS) {
    if (!masked.includes(`<${tag}`)) continue;
    // All matches are found in the string as it was before this tag's replacements (re.finditer).
    const sections = findSections(masked, tag);
    const names = sections.map(() => `__opaque_${tag}_${counter++}__`);
    for (const [i, s] of sections.entries()) templates[names[i]!] = masked.slice(s.bodyStart, s.bodyEnd);
    const replacement = (name: string) => `<${tag} data-masked-id="${name}"></${tag}>`;
    if (replacedInPlace(masked, tag, sections)) {
      masked = replaceSections(masked, sections, names.map(replacement), batches);
      continue;
    }
    // `str.replace(section, placeholder)` for each section in turn, as the original does.
    const texts = sections.map((s) => masked.slice(s.start, s.end));
    for (const [i, text] of texts.entries()) masked = replaceAll(masked, text, replacement(names[i]!), batches);
  }
  return { masked, templates, unmask: (offset) => batches.reduceRight((o, b) => unmaskBatch(b, o), offset) };
}

/**
 * What `<tag[^>]*>([\s\S]*?)</tag>` finds, left to right: from each `<tag` the first ">" and the first
 * `</tag>` after it are the only way to match. As a regex, each `<tag` with no `</tag>` after it
 * read on to the end of the text, which made many of them quadratic; here the search stops there.
 */
function findSections(text: string, tag: string): Section[] {
  const open = `<${tag}`;
  const close = `</${tag}>`;
  const out: Section[] = [];
  for (let at = text.indexOf(open); at !== -1; ) {
    const gt = text.indexOf(">", at + open.length);
    const end = gt === -1 ? -1 : text.indexOf(close, gt + 1);
    if (end === -1) break;
    out.push({ start: at, end: end + close.length, bodyStart: gt + 1, bodyEnd: end });
    at = text.indexOf(open, end + close.length);
  }
  return out;
}

/**
 * Whether the original's replacements, each of every occurrence of a section's text in the string
 * as it then is, come down to replacing each section where it is (a repeated section by the
 * placeholder of its first copy). A section's text can occur elsewhere only at a `<tag` inside
 * another section, or around an earlier placeholder, which holds `__opaque_<tag>_`; with neither,
 * it occurs only where the same text was matched.
 */
function replacedInPlace(text: string, tag: string, sections: Section[]): boolean {
  if (text.includes(`__opaque_${tag}_`)) return false;
  const open = `<${tag}`;
  return sections.every((s) => {
    const inner = text.indexOf(open, s.start + 1);
    return inner === -1 || inner >= s.end;
  });
}

/** The sections replaced where they are, in one pass; a copy of an earlier section's text gets its placeholder. */
function replaceSections(text: string, sections: Section[], replacements: string[], batches: Batch[]): string {
  const first = new Map<string, string>();
  const parts: string[] = [];
  const edits: Edit[] = [];
  let length = 0;
  let from = 0;
  for (const [i, s] of sections.entries()) {
    const section = text.slice(s.start, s.end);
    const replacement = first.get(section) ?? replacements[i]!;
    if (!first.has(section)) first.set(section, replacement);
    const before = text.slice(from, s.start);
    parts.push(before, replacement);
    edits.push({ start: length + before.length, oldLength: section.length, newLength: replacement.length });
    length += before.length + replacement.length;
    from = s.end;
  }
  parts.push(text.slice(from));
  batches.push(batch(edits));
  return parts.join("");
}

/** `str.replace(old, new)` (every occurrence, left to right), logging its edits as one batch. */
function replaceAll(text: string, find: string, replacement: string, batches: Batch[]): string {
  const edits: Edit[] = [];
  let out = "";
  let from = 0;
  let at = text.indexOf(find);
  while (at !== -1) {
    edits.push({ start: out.length + (at - from), oldLength: find.length, newLength: replacement.length });
    out += text.slice(from, at) + replacement;
    from = at + find.length;
    at = text.indexOf(find, from);
  }
  if (edits.length > 0) batches.push(batch(edits));
  return out + text.slice(from);
}

function batch(edits: Edit[]): Batch {
  const shift = [0];
  for (const e of edits) shift.push(shift[shift.length - 1]! + e.oldLength - e.newLength);
  return { edits, shift };
}

/**
 * An offset after a batch, before it: unchanged before the first edit, moved to an edit's start
 * inside it, shifted by all edits it follows. The same as undoing the edits one at a time from the
 * last, found by binary search instead of a walk over every edit.
 */
function unmaskBatch({ edits, shift }: Batch, offset: number): number {
  let lo = 0;
  let hi = edits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (edits[mid]!.start < offset) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return offset;
  const e = edits[lo - 1]!;
  const local = offset >= e.start + e.newLength ? offset + e.oldLength - e.newLength : e.start;
  return local + shift[lo - 1]!;
}
