// A value that names a redirection's file (`> {out}`, `< {in}`). Bash and ksh do not hand every such
// name to the file system: they read `/dev/tcp/HOST/PORT` and `/dev/udp/…` as network connections and
// `/dev/fd/N`, `/dev/stdin`… as descriptors, and all the names any shell reads itself live under /dev.
// So the rule is an allowlist of where a value may point: a path (relative or absolute) that, with
// `.`, `..` and repeated slashes resolved, lies outside /dev, and holds no NUL or newline.
import { posix } from "node:path";

/** Why `value` cannot be the file name of a redirection for `placeholder`, or null when it can. */
export function redirectTargetProblem(placeholder: string, value: string): string | null {
  const normal = posix.normalize(value.startsWith("/") ? value : `/${value}`);
  const special = value.startsWith("/") && (normal === "/dev" || normal.startsWith("/dev/"));
  if (!special && !/[\n\0]/.test(value)) return null;
  return `the value of ${placeholder} is the file name of a redirection and must name a file outside /dev (the shell itself reads names such as /dev/tcp/HOST/PORT there); got ${JSON.stringify(value.slice(0, 80))}`;
}
