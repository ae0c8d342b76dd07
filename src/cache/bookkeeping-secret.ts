// Where the secret that authenticates rye's bookkeeping lives: in the user space ($USER_SPACE, else
// the home folder), created on first use with mode 0600. A user space inside the checkout (a
// container whose checkout root is HOME, a USER_SPACE a config file pointed into the project) is
// no anchor: a pull request could carry the secret, so no record authenticates there.
import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, linkSync, mkdirSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { userSpace } from "../sign/keys.js";
import { userSpaceRefusal } from "../verify/user-space-refusal.js";
import { Bookkeeping, UNAUTHENTICATED } from "./bookkeeping-seal.js";

/** The secret's file in a user space. */
export const secretFile = (space: string) => join(space, ".ai", "config", "keys", "bookkeeping", "secret");

const SECRET_CHARS = 64;
const bySpace = new Map<string, Buffer | null>();

/**
 * The bookkeeping of `project` as `env` finds it: authenticating with the user space's secret, or
 * nothing at all when the user space is refused for the project or its secret cannot be used.
 */
export function bookkeepingFor(project: string, env: NodeJS.ProcessEnv, cwd = process.cwd()): Bookkeeping {
  const space = resolve(cwd, userSpace(env));
  // Checked as a folder the project holds, so "the project that holds it" is the project itself.
  if (userSpaceRefusal(space, join(resolve(cwd, project), ".rye-cache"), Boolean(env.USER_SPACE)) !== null) return UNAUTHENTICATED;
  let secret = bySpace.get(space);
  if (secret === undefined) bySpace.set(space, (secret = readSecret(secretFile(space)) ?? createSecret(secretFile(space))));
  return secret ? new Bookkeeping(secret) : UNAUTHENTICATED;
}

let ephemeral: Bookkeeping | undefined;

/**
 * Bookkeeping only this process can open (a secret never written down): the default of the output
 * writer's API, so a caller that names no user space still never replays a record it did not make.
 */
export function processBookkeeping(): Bookkeeping {
  return (ephemeral ??= new Bookkeeping(randomBytes(32)));
}

/** The secret, when the file is a regular file of this user that nobody else may read, holding one. */
function readSecret(path: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    const uid = process.getuid?.();
    if (!st.isFile() || st.size !== SECRET_CHARS || (st.mode & 0o077) !== 0 || (uid !== undefined && st.uid !== uid)) return null;
    const buf = Buffer.alloc(SECRET_CHARS);
    if (readSync(fd, buf, 0, SECRET_CHARS, 0) !== SECRET_CHARS) return null;
    const text = buf.toString("latin1");
    return /^[0-9a-f]{64}$/.test(text) ? Buffer.from(text, "hex") : null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates the secret (a complete file linked into place, so a second process never reads half of
 * one) and reads it back; null when the user space cannot hold one (read-only, or a file already
 * there that is not a usable secret: it is left alone).
 */
function createSecret(path: string): Buffer | null {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
    try {
      linkSync(tmp, path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  } catch {
    return null;
  } finally {
    rmSync(tmp, { force: true });
  }
  return readSecret(path);
}
