// What a `${VAR}` puts in is a value: the environment's text (the OS's, a checkout's .env, a path a
// resolver found), never the chain's template. The executor's later passes read `{name}` and
// `${VAR}` in whatever text they get, so each substituted text goes in as ONE opaque token and comes
// back, byte for byte, only after the last pass. Unlike a caller's value (seal-values.ts), a text is
// sealed even when it holds no `{` or `$` wherever the surrounding template could pair with it
// (`{${G}}`, `{x${G}`): the choice of when is the expander's (expand-env.ts), so here every text asked
// for is sealed. Tokens carry a random per-run part, so no text can spell another's token.
import { randomBytes } from "node:crypto";
import { defineKey, isPlainObject, type SealText } from "./expand-env.js";
import type { ValueSeal } from "./seal-values.js";

/** Seals texts, and puts back both these and the run's sealed values. */
export interface TextSeal {
  seal: SealText;
  restore: <T>(value: T) => T;
}

/**
 * A text seal beside the run's value seal. A text may hold tokens already (an env variable the
 * `{param}` pass filled holds value tokens, a text sealed again holds its own): its own are opened as
 * it is sealed, and the values' when everything is put back, texts first.
 */
export function textSeal(values: ValueSeal): TextSeal {
  const nonce = randomBytes(8).toString("hex");
  const texts: string[] = [];
  const token = new RegExp(`@rye-text-${nonce}-(\\d+)@`, "g");
  const open = (text: string): string => text.replace(token, (_m, i: string) => texts[Number(i)]!);
  const seal = (text: string): string => {
    texts.push(open(text));
    return `@rye-text-${nonce}-${texts.length - 1}@`;
  };
  const one = (v: unknown): unknown => {
    if (typeof v === "string") return open(v);
    if (Array.isArray(v)) return v.map(one);
    if (!isPlainObject(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) defineKey(out, k, one(x));
    return out;
  };
  const restore = <T>(value: T): T => values.restore((texts.length === 0 ? value : one(value)) as T);
  return { seal, restore };
}
