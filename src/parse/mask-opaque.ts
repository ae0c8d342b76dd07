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

export interface Masked {
  masked: string;
  templates: Record<string, string>;
  /** Maps an offset in `masked` back to the unmasked text (inside a mask: its start). */
  unmask(offset: number): number;
}

/** Masks opaque sections as the original does, keeping a log to map locations back. */
export function maskOpaque(xml: string): Masked {
  const edits: Edit[] = [];
  const templates: Record<string, string> = {};
  let masked = xml;
  let counter = 0;
  for (const tag of OPAQUE_TAGS) {
    if (!masked.includes(`<${tag}`)) continue;
    // All matches are found in the string as it was before this tag's replacements (re.finditer).
    const pattern = new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`, "g");
    for (const match of [...masked.matchAll(pattern)]) {
      const placeholder = `__opaque_${tag}_${counter++}__`;
      templates[placeholder] = match[1]!;
      const replacement = `<${tag} data-masked-id="${placeholder}"></${tag}>`;
      masked = replaceAll(masked, match[0], replacement, edits);
    }
  }
  return {
    masked,
    templates,
    unmask(offset) {
      for (let i = edits.length - 1; i >= 0; i--) {
        const e = edits[i]!;
        if (offset >= e.start + e.newLength) offset += e.oldLength - e.newLength;
        else if (offset > e.start) offset = e.start;
      }
      return offset;
    },
  };
}

/** `str.replace(old, new)` (every occurrence, left to right), logging each edit. */
function replaceAll(text: string, find: string, replacement: string, edits: Edit[]): string {
  let out = "";
  let from = 0;
  let at = text.indexOf(find);
  while (at !== -1) {
    edits.push({ start: out.length + (at - from), oldLength: find.length, newLength: replacement.length });
    out += text.slice(from, at) + replacement;
    from = at + find.length;
    at = text.indexOf(find, from);
  }
  return out + text.slice(from);
}
