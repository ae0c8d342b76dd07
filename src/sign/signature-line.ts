/** The four kinds of signable Rye items. */
export type ItemKind = "directive" | "knowledge" | "tool" | "config";

/** How a kind and file extension spell their signature line. */
export interface SignatureFormat {
  prefix: string;
  suffix?: string;
  afterShebang: boolean;
}

/** The fields of a `rye:signed:` line, with the optional `|provider@username` provenance. */
export interface SignatureInfo {
  timestamp: string;
  hash: string;
  signature: string;
  fingerprint: string;
  registryProvider?: string;
  registryUsername?: string;
}

/** Raised when no signature format exists for a kind and extension, with the original's wording. */
export class SignatureFormatError extends Error {
  override name = "ValueError";
}

const MARKDOWN: SignatureFormat = { prefix: "<!--", suffix: "-->", afterShebang: false };
const HASH: SignatureFormat = { prefix: "#", afterShebang: true };
const SLASH: SignatureFormat = { prefix: "//", afterShebang: false };
const CONFIG: SignatureFormat = { prefix: "#", afterShebang: false };

// The core bundle's extractor YAMLs at c3c308052, keyed by kind then extension.
const FORMATS: Record<ItemKind, Record<string, SignatureFormat>> = {
  directive: { ".md": MARKDOWN },
  knowledge: { ".md": MARKDOWN, ".yaml": MARKDOWN, ".yml": MARKDOWN },
  tool: {
    ".py": HASH, ".yaml": HASH, ".yml": HASH, ".json": HASH, ".sh": HASH, ".toml": HASH,
    ".js": SLASH, ".ts": SLASH, ".mjs": SLASH, ".cjs": SLASH,
  },
  config: { ".yaml": CONFIG, ".yml": CONFIG, ".toml": CONFIG },
};

/** Python's `Path(name).suffix`: the last dot-suffix of the final path component, or "". */
export function pathSuffix(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf(".");
  return dot <= 0 || dot === name.length - 1 ? "" : name.slice(dot);
}

/** The final component of a slash-separated path. */
export function baseName(path: string): string {
  const parts = path.split("/").filter((p) => p !== "");
  return parts[parts.length - 1] ?? "";
}

/** The signature format for a kind and file name, as the original's extractors configure it. */
export function signatureFormatFor(kind: ItemKind, filename: string): SignatureFormat {
  const ext = pathSuffix(filename).toLowerCase();
  const format = FORMATS[kind]?.[ext];
  if (format) return { ...format };
  throw new SignatureFormatError(
    `No signature format configured for extension '${ext}' (kind: ${kind}, file: ${baseName(filename)}). ` +
      `Add it to the ${kind} extractor's signature_formats or signature_format.`,
  );
}

/**
 * The format the original falls back to when it has no file name: markdown kinds always use `<!-- -->`,
 * tool and config strategies without a path use `#` after an optional shebang.
 */
export function defaultFormat(kind: ItemKind): SignatureFormat {
  return kind === "directive" || kind === "knowledge" ? { ...MARKDOWN } : { ...HASH };
}

/** The format for a kind, from the file name when there is one. */
export function formatFor(kind: ItemKind, filename?: string): SignatureFormat {
  if (kind === "directive" || kind === "knowledge") return { ...MARKDOWN };
  return filename === undefined ? defaultFormat(kind) : signatureFormatFor(kind, filename);
}

const FIELDS =
  "(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z)" +
  ":([a-f0-9]{64})" +
  ":([A-Za-z0-9_-]+={0,2})" +
  ":([a-f0-9]{16})" +
  "(?:\\|([a-zA-Z0-9_-]+)@([a-zA-Z0-9_-]+))?";
const SHEBANG = /^#!\/[^\n]*\n/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function isMarkdown(format: SignatureFormat): boolean {
  return format.prefix === "<!--";
}

/** Reads the signature line at the start of `text` (after a shebang when the format allows), or null. */
export function parseSignatureLine(text: string, format: SignatureFormat): SignatureInfo | null {
  const pattern = isMarkdown(format)
    ? `^<!-- rye:signed:${FIELDS} -->`
    : `^${format.afterShebang ? "(?:#!/[^\\n]*\\n)?" : ""}${escapeRegExp(format.prefix)} rye:signed:${FIELDS}`;
  const m = new RegExp(pattern).exec(text);
  if (!m) return null;
  const info: SignatureInfo = { timestamp: m[1]!, hash: m[2]!, signature: m[3]!, fingerprint: m[4]! };
  if (m[5] && m[6]) {
    info.registryProvider = m[5];
    info.registryUsername = m[6];
  }
  return info;
}

/** Writes a signature line, newline included; the optional provenance suffix is written only when both parts are given. */
export function formatSignatureLine(format: SignatureFormat, info: SignatureInfo): string {
  const provenance =
    info.registryProvider && info.registryUsername ? `|${info.registryProvider}@${info.registryUsername}` : "";
  const body = `rye:signed:${info.timestamp}:${info.hash}:${info.signature}:${info.fingerprint}${provenance}`;
  return isMarkdown(format) ? `<!-- ${body} -->\n` : `${format.prefix} ${body}\n`;
}

/**
 * Removes one leading signature line (also the legacy `validated` and `kiwi-mcp` spellings),
 * keeping a shebang in place; a line without its newline is left alone, as in the original.
 */
export function removeSignatureLine(text: string, format: SignatureFormat): string {
  if (isMarkdown(format)) return text.replace(/^<!-- (?:rye|kiwi-mcp):(?:validated|signed):[^>]+-->\n/, "");
  const shebang = SHEBANG.exec(text)?.[0] ?? "";
  const rest = text.slice(shebang.length);
  const line = new RegExp(`^${escapeRegExp(format.prefix)} (?:rye|kiwi-mcp):(?:validated|signed):[^\\n]+\\n`);
  return shebang + rest.replace(line, "");
}

/** Replaces any existing signature line with `line`, after the shebang when the format says so. */
export function insertSignatureLine(text: string, line: string, format: SignatureFormat): string {
  const clean = removeSignatureLine(text, format);
  if (!isMarkdown(format) && format.afterShebang && clean.startsWith("#!/")) {
    const nl = clean.indexOf("\n");
    return nl === -1 ? `${clean}\n${line}` : `${clean.slice(0, nl + 1)}${line}${clean.slice(nl + 1)}`;
  }
  return line + clean;
}

/** Removes a leading shebang line, as the tool hash region does. */
export function stripShebang(text: string): string {
  return text.replace(SHEBANG, "");
}
