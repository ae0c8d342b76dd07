// The spawn guard of a bundle run judges the process the launcher walk reaches, with the
// environment and working directory it really gets (src/bundle/launch-guard.ts). Enumerated:
//   - environment values naming a checkout file or folder, for variables no list names (HOME,
//     ZDOTDIR, PERL5OPT, GIT_CONFIG_GLOBAL, XDG_CONFIG_HOME, PYTHONUSERBASE, FOO_CONFIG…) and for
//     the listed ones, × the channels that set them (the chain's env, `env NAME=…` in argv,
//     `env -S "NAME=…"`);
//   - launchers × checkout programs (`timeout`, `nice`, `env PATH=…`, `env -C`, a shell's script,
//     an interpreter's script or `-I`, an unknown runner's operand).
// Each case spawns real processes whose payload leaves a marker: the guard must refuse, naming the
// variable or argument and the opt-in, and the marker must not exist; the same process started
// without the guard leaves the marker (the payload is live). A few must start (controls).
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkoutOf } from "../../src/bundle/checkout.js";
import { guardedExeca } from "../../src/bundle/guard-spawn.js";
import { dropCheckoutValues } from "../../src/bundle/checkout-env.js";
import type { Execa } from "../../src/runtime/exec/run-process.js";
import { tempDir } from "./helpers.js";

const which = (name: string) => spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
// The interpreter itself, not a version manager's shim (a shim reads HOME, which these cases change).
const PYTHON = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();
const HAVE = { zsh: which("zsh"), perl: which("perl"), git: which("git"), dash: which("dash"), ruby: which("ruby"), flock: which("flock"), python: PYTHON, gcc: which("gcc") };

const base = tempDir("rye-launch-values-");
afterAll(() => rmSync(base, { recursive: true, force: true }));
const repo = join(base, "repo");
const proj = join(repo, "proj");
const ci = join(proj, "ci");
const markers = join(tempDir("rye-launch-markers-"), "m");
const home = tempDir("rye-launch-home-");
for (const dir of [join(proj, ".ai/tools/demo"), join(proj, "out"), ci, markers]) mkdirSync(dir, { recursive: true });
writeFileSync(join(proj, "out", "manifest.json"), "{}");
if (HAVE.git) spawnSync("git", ["init", "-q", repo]);
else mkdirSync(join(repo, ".git"));

const mark = (name: string) => join(markers, name);
const put = (path: string, text: string, mode = 0o644) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
};
// The pull request: startup files, configuration, modules and programs, each leaving a marker.
put(join(proj, ".zshenv"), `touch ${mark("home-zshenv")}\n`);
put(join(ci, ".zshenv"), `touch ${mark("zdotdir")}\n`);
put(join(proj, ".bash_profile"), `touch ${mark("home-bash-profile")}\n`);
put(join(ci, "runpm.pm"), `open(my $f, ">", "${mark("perl5opt")}"); 1;\n`);
put(join(ci, "gitconfig"), `[core]\n\tfsmonitor = "touch ${mark("git-config-global")}; false"\n`);
put(join(ci, "git/config"), `[core]\n\tfsmonitor = "touch ${mark("xdg-config-home")}; false"\n`);
put(join(ci, "bashenv"), `touch ${mark("bash-env")}\n`);
put(join(ci, "shenv"), `touch ${mark("env")}\n`);
put(join(ci, "startup.py"), `open(${JSON.stringify(mark("pythonstartup"))}, "w")\n`);
put(join(ci, "userbase/lib/python3.11/site-packages/evil.pth"), `import os; open(${JSON.stringify(mark("pythonuserbase"))}, "w")\n`);
put(join(ci, "rubyopt.rb"), `File.write(${JSON.stringify(mark("rubyopt"))}, "")\n`);
put(join(ci, "foo.conf"), `touch ${mark("foo-config")}\n`);
put(join(ci, "run.sh"), `#!/bin/sh\ntouch ${mark("run-sh")}\n`, 0o755);
put(join(ci, "run.py"), `open(${JSON.stringify(mark("run-py"))}, "w")\n`);
put(join(ci, "plain.sh"), `touch ${mark("plain-sh")}\n`);
// The plan's own file: hashed before the run, so it may run from the checkout.
const planFile = join(proj, ".ai/tools/demo/tool.sh");
put(planFile, `#!/bin/sh\necho tool\n`, 0o755);
if (HAVE.gcc) {
  const src = join(base, "evil.c");
  writeFileSync(src, `#include <stdio.h>\n__attribute__((constructor)) static void ran(void) { FILE *f = fopen("${mark("ld-preload")}", "w"); if (f) fclose(f); }\n`);
  spawnSync(HAVE.gcc, ["-shared", "-fPIC", "-o", join(ci, "evil.so"), src]);
}

const checkout = checkoutOf({ bundle: join(proj, "out", "bundle.mjs"), cwd: proj, env: { USER_SPACE: home } });
const optIn = "pass --trust-checkout to allow it";
const PATH = [dirname(PYTHON || "/usr/bin/python3"), "/usr/bin", "/bin"].join(delimiter);
const baseEnv = (): Record<string, string> => ({ PATH, HOME: home });

/** Runs `argv` with `env` in the checkout through the guard (or straight, `guarded` false); returns the refusal or "". */
function start(argv: readonly string[], env: Record<string, string>, guarded = true): string {
  const inner: Execa = (file, args, options) => {
    spawnSync(file, args, { cwd: options.cwd as string, env: options.env as NodeJS.ProcessEnv, stdio: "ignore", timeout: 20_000 });
    return {} as ReturnType<Execa>;
  };
  const spawn = guarded ? guardedExeca(inner, { checkout, planFiles: [planFile], optIn }) : inner;
  try {
    spawn(argv[0]!, argv.slice(1), { cwd: proj, env });
    return "";
  } catch (e) {
    return (e as Error).message;
  }
}

/** A variable whose value names a checkout path, the program that reads it, and its marker. */
interface Member {
  name: string;
  value: string;
  argv: string[];
  marker: string;
  needs?: keyof typeof HAVE;
}

const MEMBERS: Member[] = [
  { name: "HOME", value: proj, argv: ["zsh", "-c", "true"], marker: "home-zshenv", needs: "zsh" },
  { name: "HOME", value: proj, argv: ["bash", "--login", "-c", "true"], marker: "home-bash-profile" },
  { name: "ZDOTDIR", value: ci, argv: ["zsh", "-c", "true"], marker: "zdotdir", needs: "zsh" },
  { name: "PERL5OPT", value: `-I${ci} -Mrunpm`, argv: ["perl", "-e", "1"], marker: "perl5opt", needs: "perl" },
  { name: "GIT_CONFIG_GLOBAL", value: join(ci, "gitconfig"), argv: ["git", "status", "--short"], marker: "git-config-global", needs: "git" },
  { name: "XDG_CONFIG_HOME", value: ci, argv: ["git", "status", "--short"], marker: "xdg-config-home", needs: "git" },
  { name: "BASH_ENV", value: join(ci, "bashenv"), argv: ["bash", "-c", "true"], marker: "bash-env" },
  { name: "ENV", value: join(ci, "shenv"), argv: ["dash", "-i", "-c", "true"], marker: "env", needs: "dash" },
  { name: "PYTHONSTARTUP", value: join(ci, "startup.py"), argv: [PYTHON, "-i"], marker: "pythonstartup", needs: "python" },
  { name: "PYTHONUSERBASE", value: join(ci, "userbase"), argv: [PYTHON, "-c", "pass"], marker: "pythonuserbase", needs: "python" },
  { name: "RUBYOPT", value: `-r${join(ci, "rubyopt.rb")}`, argv: ["ruby", "-e", "1"], marker: "rubyopt", needs: "ruby" },
  { name: "LD_PRELOAD", value: join(ci, "evil.so"), argv: ["/bin/true"], marker: "ld-preload", needs: "gcc" },
  { name: "FOO_CONFIG", value: join(ci, "foo.conf"), argv: ["sh", "-c", '. "$FOO_CONFIG"'], marker: "foo-config" },
];

type Channel = "chain env" | "env NAME= in argv" | "env -S";
const CHANNELS: Channel[] = ["chain env", "env NAME= in argv", "env -S"];

/** The process as the channel sets the variable; null when the value cannot travel that way (env -S splits at spaces). */
function through(channel: Channel, m: Member): { argv: string[]; env: Record<string, string> } | null {
  const env = baseEnv();
  if (channel === "chain env") return { argv: m.argv, env: { ...env, [m.name]: m.value } };
  if (channel === "env NAME= in argv") return { argv: ["env", `${m.name}=${m.value}`, ...m.argv], env };
  if (/\s/.test(m.value) || m.argv.some((a) => /[\s'"$\\#]/.test(a))) return null;
  return { argv: ["env", "-S", `${m.name}=${m.value} ${m.argv.join(" ")}`], env };
}

describe("environment values naming the checkout, whatever the variable's name, through every channel", () => {
  for (const m of MEMBERS) {
    for (const channel of CHANNELS) {
      const run = through(channel, m);
      const missing = m.needs && !HAVE[m.needs] ? `${m.needs} is not installed` : run === null ? "the value holds white space, which env -S splits" : "";
      it.skipIf(missing !== "")(`${m.name} (${m.argv[0]!.split("/").at(-1)}) via ${channel}${missing ? ` — skipped: ${missing}` : ""}`, () => {
        const marker = mark(m.marker);
        rmSync(marker, { force: true });
        const refused = start(run!.argv, run!.env);
        expect(refused, "the guard let it start").not.toBe("");
        expect(refused).toContain(m.name);
        expect(refused).toContain(optIn);
        expect(existsSync(marker), "the checkout's payload ran").toBe(false);
        // The payload is live: the same process without the guard leaves the marker.
        start(run!.argv, run!.env, false);
        expect(existsSync(marker), `payload ${m.marker} did not run without the guard`).toBe(true);
        rmSync(marker, { force: true });
      });
    }
  }
});

/** A launcher form in front of a checkout program; `cwd` defaults to the project. */
interface Form {
  name: string;
  argv: string[];
  marker: string;
  /** What the refusal must name. */
  names: string;
  env?: Record<string, string>;
  needs?: keyof typeof HAVE;
}

const FORMS: Form[] = [
  { name: "the program itself", argv: [join(ci, "run.sh")], marker: "run-sh", names: "run.sh" },
  { name: "relative to the working directory", argv: ["./ci/run.sh"], marker: "run-sh", names: "run.sh" },
  { name: "env", argv: ["env", join(ci, "run.sh")], marker: "run-sh", names: "argv[1]" },
  { name: "nice -n 5", argv: ["nice", "-n", "5", join(ci, "run.sh")], marker: "run-sh", names: "argv[3]" },
  { name: "timeout 5", argv: ["timeout", "5", "./ci/run.sh"], marker: "run-sh", names: "argv[2]" },
  { name: "stdbuf -o0", argv: ["stdbuf", "-o0", join(ci, "run.sh")], marker: "run-sh", names: "argv[2]" },
  { name: "setsid -w", argv: ["setsid", "-w", join(ci, "run.sh")], marker: "run-sh", names: "argv[2]" },
  { name: "nohup (in a launcher chain)", argv: ["timeout", "5", "nohup", join(ci, "run.sh")], marker: "run-sh", names: "argv[3]" },
  { name: "env PATH=<checkout>:… run.sh", argv: ["env", `PATH=${ci}${delimiter}/usr/bin${delimiter}/bin`, "run.sh"], marker: "run-sh", names: "PATH=" },
  { name: "env -S 'PATH=<checkout>:… run.sh'", argv: ["env", "-S", `PATH=${ci}${delimiter}/usr/bin${delimiter}/bin run.sh`], marker: "run-sh", names: "PATH=" },
  { name: "env -C <checkout> ./run.sh", argv: ["env", "-C", ci, "./run.sh"], marker: "run-sh", names: "./run.sh" },
  { name: "bash <script>", argv: ["bash", join(ci, "plain.sh")], marker: "plain-sh", names: "plain.sh" },
  { name: "sh <script> (relative)", argv: ["sh", "ci/plain.sh"], marker: "plain-sh", names: "ci/plain.sh" },
  { name: "bash --rcfile <file> -i", argv: ["bash", "--rcfile", join(ci, "plain.sh"), "-i", "-c", "true"], marker: "plain-sh", names: "plain.sh" },
  { name: "bash -c <checkout program>", argv: ["bash", "-c", join(ci, "run.sh")], marker: "run-sh", names: "run.sh" },
  { name: 'bash -c \'"$1"\' <checkout program>', argv: ["bash", "-c", '"$1"', "bash", join(ci, "run.sh")], marker: "run-sh", names: "run.sh" },
  { name: "bash -c '. <checkout file>' (sourced: a script whatever its mode)", argv: ["bash", "-c", `. ${join(ci, "plain.sh")}`], marker: "plain-sh", names: "plain.sh" },
  { name: "bash -c 'true; source <relative checkout file>'", argv: ["bash", "-c", "true; source ci/plain.sh"], marker: "plain-sh", names: "ci/plain.sh" },
  { name: "python3 <script>", argv: [PYTHON, join(ci, "run.py")], marker: "run-py", names: "run.py", needs: "python" },
  { name: "env PYTHONPATH=<checkout> python3 -c 'import run'", argv: ["env", `PYTHONPATH=${ci}`, PYTHON, "-c", "import run"], marker: "run-py", names: "PYTHONPATH", needs: "python" },
  { name: "perl -I<checkout> -Mrunpm", argv: ["perl", `-I${ci}`, "-Mrunpm", "-e", "1"], marker: "perl5opt", names: `-I${ci}`, needs: "perl" },
  { name: "an unknown runner's operand (flock)", argv: ["flock", join(base, "lock"), join(ci, "run.sh")], marker: "run-sh", names: "run.sh", needs: "flock" },
];

describe("launchers, shells and interpreters in front of a checkout program the plan did not hash", () => {
  for (const f of FORMS) {
    const missing = f.needs && !HAVE[f.needs] ? `${f.needs} is not installed` : "";
    it.skipIf(missing !== "")(`${f.name}${missing ? ` — skipped: ${missing}` : ""}`, () => {
      const marker = mark(f.marker);
      rmSync(marker, { force: true });
      const env = { ...baseEnv(), ...f.env };
      const refused = start(f.argv, env);
      expect(refused, "the guard let it start").not.toBe("");
      expect(refused).toContain(f.names);
      expect(refused).toContain(optIn);
      expect(existsSync(marker), "the checkout's program ran").toBe(false);
      start(f.argv, env, false);
      expect(existsSync(marker), `payload ${f.marker} did not run without the guard`).toBe(true);
      rmSync(marker, { force: true });
    });
  }
});

describe("what a bundle run still starts", () => {
  const controls: [name: string, argv: string[], env?: Record<string, string>][] = [
    ["the plan's own file behind a launcher", ["timeout", "5", planFile]],
    ["an interpreter running the plan's file with the project folder as an argument", ["sh", planFile, "--project-path", proj]],
    ["a -c script given the project folder", ["bash", "-c", 'ls "$1" >/dev/null', "bash", proj]],
    ["a data command reading a checkout program", ["cat", join(ci, "run.sh")]],
    ["git on the project with HOME outside", ["git", "-C", proj, "status", "--short"]],
    ["a variable naming the plan's own file", ["sh", "-c", "true"], { TOOL_FILE: planFile }],
    ["a value that is a word, not a path (a folder of that name need not exist)", ["sh", "-c", "true"], { NODE_ENV: "production", BRANCH: "refs/heads/main" }],
  ];
  for (const [name, argv, extra] of controls) {
    it(name, () => {
      expect(start(argv, { ...baseEnv(), ...extra })).toBe("");
    });
  }

  it("HOME inside the checkout is refused by name, with both ways out; overriding it outside in argv starts", () => {
    const refused = start(["sh", "-c", "true"], { ...baseEnv(), HOME: proj });
    expect(refused).toContain(`HOME=${proj} lies in the checkout`);
    expect(refused).toContain("HOME=$(mktemp -d)");
    expect(refused).toContain(optIn);
    expect(start(["env", `HOME=${home}`, "sh", "-c", "true"], { ...baseEnv(), HOME: proj })).toBe("");
  });

  it("inherited values naming the checkout are dropped, whatever their name; HOME and preloads stay for the guard to refuse", () => {
    const inherited = { PWD: proj, OLDPWD: ci, _: join(ci, "run.sh"), GITHUB_WORKSPACE: repo, LANG: "C.UTF-8", HOME: proj, BASH_ENV: join(ci, "bashenv"), TMPDIR: "/tmp" };
    expect(dropCheckoutValues(inherited, checkout, proj)).toEqual({ LANG: "C.UTF-8", HOME: proj, BASH_ENV: join(ci, "bashenv"), TMPDIR: "/tmp" });
  });
});
