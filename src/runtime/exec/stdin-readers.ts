// The stdin rule for a command rye runs (stdin-program.ts), plus what a shell's own `-c` script does
// with the values on its stdin: a script the chain wrote that runs program text the build did not
// see (`cat > s.sh; sh s.sh`, `cp /dev/stdin x; ./x`) turns stdin into code, so stdin is refused there;
// and every command of the script that inherits its stdin is judged by the same rule (script-stdin.ts).
import { walkLaunchers } from "./launchers.js";
import { unseenProgramIn } from "./shell-context.js";
import type { Word } from "./shell-options.js";
import { moduleRole, scriptStdinRole } from "./script-stdin.js";
import { programStdinRole, type StdinRole } from "./stdin-program.js";

const rank = { refuse: 0, inert: 1, full: 2 } as const;
const weaker = (a: StdinRole, b: StdinRole): StdinRole => (rank[b.role] < rank[a.role] ? b : a);

export type { StdinRole } from "./stdin-program.js";

/** The role of the stdin of `argv` (argv[0] is the command; null for a word that is not literal). */
export function stdinRole(argv: readonly Word[]): StdinRole {
  const role = moduleRole(argv) ?? programStdinRole(argv);
  if (role.role === "refuse") return role;
  const launch = walkLaunchers(argv);
  const script = launch.family !== null && launch.proven && launch.script >= 0 ? argv[launch.script] : null;
  const unseen = typeof script === "string" ? unseenProgramIn(script) : null;
  if (unseen === null) return typeof script === "string" ? weaker(role, scriptStdinRole(script)) : role;
  return { role: "refuse", reason: `stdin of ${launch.name}, whose -c script runs program text the build never sees (${unseen})` };
}
