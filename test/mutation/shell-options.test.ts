// A shell's invocation options (src/runtime/exec/shell-options.ts): the allowlist of options that
// change only error handling, tracing, job control or globbing (each is a real bash option: `bash -o
// NAME`, `bash -O NAME`, `bash --NAME` all run), and how the `-c` script is found after them.
import { describe, expect, it } from "vitest";
import { parseShellOptions } from "../../src/runtime/exec/shell-options.js";

const SET_O = ["errexit", "nounset", "pipefail", "xtrace", "verbose", "noglob", "noclobber", "posix", "noexec", "errtrace", "functrace", "allexport", "physical", "hashall", "notify", "monitor"];
const SHOPT = ["nullglob", "failglob", "dotglob", "globstar", "nocaseglob", "nocasematch", "lastpipe", "inherit_errexit", "xpg_echo", "checkwinsize"];
const LONG = ["--norc", "--noprofile", "--posix", "--login", "--noediting", "--restricted"];

describe("the options on rye's list", () => {
  it("-o and +o with each set option", () => {
    for (const o of SET_O) {
      expect(parseShellOptions(["-o", o, "-c", "s"]), `-o ${o}`).toBe(3);
      expect(parseShellOptions(["+o", o, "-c", "s"]), `+o ${o}`).toBe(3);
    }
  });

  it("-O and +O with each shopt name", () => {
    for (const o of SHOPT) {
      expect(parseShellOptions(["-O", o, "-c", "s"]), `-O ${o}`).toBe(3);
      expect(parseShellOptions(["+O", o, "-c", "s"]), `+O ${o}`).toBe(3);
    }
  });

  it("each long option", () => {
    for (const o of LONG) expect(parseShellOptions([o, "-c", "s"]), o).toBe(2);
  });

  it("a set option is no shopt name, nor the other way round", () => {
    expect(parseShellOptions(["-O", "pipefail", "-c", "s"])).toBe("shell option -O pipefail is not on rye's list");
    expect(parseShellOptions(["-o", "globstar", "-c", "s"])).toBe("shell option -o globstar is not on rye's list");
  });
});

describe("where the script is", () => {
  it("a word that is not an option ends them: the shell runs a file", () => {
    for (const w of ["file-x.sh", "a+b", "script", "x-c"]) expect(parseShellOptions([w, "-c", "s"]), w).toBe(-1);
  });

  it("a placeholder is the script after -c, and unknown among the options", () => {
    expect(parseShellOptions(["-c", null])).toBe(1);
    expect(parseShellOptions(["-e", "-c", null, "x"])).toBe(2);
    expect(parseShellOptions([null])).toBe("a placeholder among the shell's options");
    expect(parseShellOptions(["-e", null, "-c", "s"])).toBe("a placeholder among the shell's options");
  });

  it("a missing or placeholder option name is named as empty", () => {
    expect(parseShellOptions(["-o"])).toBe("shell option -o  is not on rye's list");
    expect(parseShellOptions(["-O", null, "-c", "s"])).toBe("shell option -O  is not on rye's list");
    expect(parseShellOptions(["-co", "errexit", "s"])).toBe(2);
  });
});
