// The keys of rye.config.json (or "rye" in package.json), each with the JSON type it takes. Trusted
// keys are deliberately absent: the config lives in the checkout, and a pull request could add its own
// key there (trust anchors come from outside the checkout: RYE_TRUSTED_KEYS, --trusted-key).

/** The config file's settings; every one has a command-line flag that overrides it. */
export interface RyeConfig {
  /** Output folder, relative to the project (`--out`). */
  out?: string;
  /** The user space (`--user-space`). */
  userSpace?: string;
  /** System spaces, searched last, in order (`--system`). */
  system?: string[];
  /** Write unsigned modules (`--allow-unsigned`). */
  allowUnsigned?: boolean;
  /** Refuse sources that do not carry a valid trusted signature (`--verify-sources`). */
  verifySources?: boolean;
  /** Where this machine's signing key lives (`RYE_SIGNING_KEY_DIR`). */
  signingKeyDir?: string;
  /** The agents TOML for `rye run --agent` (`--agents`). */
  agents?: string;
  /** Print info diagnostics too (`--verbose`). */
  verbose?: boolean;
}

/**
 * The most entries the `system` list takes. Each entry is a space every command reads in full, so the
 * count multiplies the work of a build (a 1 MiB file holds 262,000 entries); real projects name one or two.
 */
export const MAX_SYSTEM_SPACES = 16;

/**
 * A setting's type, its description, and for a list the most entries it takes: the type demands a
 * bound for every list, so a list setting cannot be added without one (the reader refuses past it).
 */
export type ConfigKey = ["string" | "boolean", string] | ["string[]", string, number];

/** Each key's type and description: the one list the reader, the JSON Schema and the docs use. */
export const CONFIG_KEYS: Record<keyof RyeConfig, ConfigKey> = {
  out: ["string", "Output folder, relative to the project root (flag: --out). Default: out."],
  userSpace: ["string", "The user space, searched after the project (flag: --user-space). Default: $USER_SPACE, else the home folder."],
  system: ["string[]", `System spaces, searched last, in order (flag: --system, repeatable). At most ${MAX_SYSTEM_SPACES} entries; an entry naming the same folder as an earlier one is dropped.`, MAX_SYSTEM_SPACES],
  allowUnsigned: ["boolean", "Write unsigned modules, for local experiments only (flag: --allow-unsigned)."],
  verifySources: ["boolean", "Every project item must carry a valid signature by a trusted key (flag: --verify-sources)."],
  signingKeyDir: ["string", "Folder holding this machine's signing key (environment: RYE_SIGNING_KEY_DIR)."],
  agents: ["string", "The agents TOML used by rye run --agent (flag: --agents). Default: .ai/config/agents.toml."],
  verbose: ["boolean", "Also print info diagnostics (flag: --verbose)."],
};
