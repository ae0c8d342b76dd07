// The launcher walk's trace (src/runtime/exec/launchers.ts): every program word it passes and what
// `env` changes on the way, which a bundle run's spawn guard judges as the process really started.
// Expected values follow GNU env's own semantics: -i empties the environment, -u NAME removes one
// variable, -C DIR changes the directory, NAME=value words before the command set one variable.
import { describe, expect, it } from "vitest";
import { walkLaunchers, type LaunchTrace, type Word } from "../../src/runtime/exec/launchers.js";

const traced = (...argv: Word[]) => {
  const trace: LaunchTrace = { hops: [], words: [], effects: [] };
  const launch = walkLaunchers(argv, trace);
  return { launch, ...trace };
};

describe("env's effects on the command's environment", () => {
  it("records -i, -u NAME, -C DIR and NAME=value in order, and each program word with the effects made before it", () => {
    const t = traced("env", "-i", "-u", "A", "-C", "/d", "B=1", "timeout", "5", "sh", "-c", "x");
    expect(t.effects).toEqual([{ clear: true }, { unset: "A" }, { chdir: "/d" }, { set: "B", value: "1", at: 6 }]);
    expect(t.hops).toEqual([
      { word: "env", at: 0, index: 0, effects: 0 },
      { word: "timeout", at: 7, index: 7, effects: 4 },
      { word: "sh", at: 9, index: 9, effects: 4 },
    ]);
    expect(t.words).toEqual(["env", "-i", "-u", "A", "-C", "/d", "B=1", "timeout", "5", "sh", "-c", "x"]);
    expect(t.launch).toMatchObject({ name: "sh", script: 11, proven: true });
  });

  it("reads the long forms, attached or not, and splits an assignment at its first =", () => {
    const t = traced("env", "--ignore-environment", "--unset=A", "--unset", "B", "--chdir=/d", "C=x=y", "prog");
    expect(t.effects).toEqual([{ clear: true }, { unset: "A" }, { unset: "B" }, { chdir: "/d" }, { set: "C", value: "x=y", at: 6 }]);
    expect(t.hops.map((h) => [h.word, h.at, h.effects])).toEqual([["env", 0, 0], ["prog", 7, 5]]);
  });

  it("reads a cluster and attached values", () => {
    const t = traced("env", "-iuA", "-C/d", "prog");
    expect(t.effects).toEqual([{ clear: true }, { unset: "A" }, { chdir: "/d" }]);
    expect(t.hops.at(-1)).toEqual({ word: "prog", at: 3, index: 3, effects: 3 });
  });

  it("a flag that changes nothing (-v, -0) records nothing", () => {
    expect(traced("env", "-v", "-0", "prog").effects).toEqual([]);
  });

  it("only env's options are effects: sudo -u, sudo -D, chrt -i and an assignment after timeout change no variable", () => {
    expect(traced("sudo", "-u", "root", "-D", "/tmp", "prog").effects).toEqual([]);
    expect(traced("chrt", "-i", "0", "prog").effects).toEqual([]);
    const t = traced("timeout", "5", "A=1", "x");
    expect(t.effects).toEqual([]);
    expect(t.launch).toMatchObject({ name: "A=1", program: 2, proven: true });
  });
});

describe("program words", () => {
  it("records busybox and its applet as two hops", () => {
    const t = traced("busybox", "env", "-i", "sh", "-c", "x");
    expect(t.hops).toEqual([
      { word: "busybox", at: 0, index: 0, effects: 0 },
      { word: "env", at: 1, index: 1, effects: 0 },
      { word: "sh", at: 3, index: 3, effects: 1 },
    ]);
  });

  it("a placeholder in program position is no hop", () => {
    const t = traced("nice", null, "x");
    expect(t.hops).toEqual([{ word: "nice", at: 0, index: 0, effects: 0 }]);
    expect(t.launch.proven).toBe(false);
  });

  it("after env -S the trace holds the split words, and a program inside the string has no argv element", () => {
    const t = traced("env", "-S", "A=1 prog --flag");
    expect(t.words).toContain("prog");
    expect(t.words).not.toContain("-S");
    expect(t.hops.map((h) => [h.word, h.at])).toContainEqual(["prog", -1]);
  });
});
