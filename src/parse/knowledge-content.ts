/**
 * The text a thread is given for a knowledge item, as the original's knowledge executor returns it:
 * the body after the YAML fence, or, when that is empty, the whole file. A pure `.yaml`/`.yml` item
 * has no body (unless it sets a `body` key), so its whole text is its content.
 */
export function knowledgeContent(data: { body?: unknown; raw: string }): string {
  // A `body` key that is not text would crash the original's thread when it strips it; it is
  // passed over here, as an empty one is.
  return typeof data.body === "string" && data.body !== "" ? data.body : data.raw;
}
