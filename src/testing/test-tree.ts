// The files under one folder of `.ai/tests/`, walked the way sources are: links are not followed,
// only regular files count, and folders deeper than the source limit are not entered, so a hostile
// tree can neither loop the walk nor exhaust the stack.
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { MAX_FOLDER_DEPTH } from "../project/file-kinds.js";
import { TEST_SUFFIX } from "./test-file.js";

export interface TestTree {
  /** Absolute paths of the regular files, in a stable order. */
  files: string[];
  /** Folders that were not entered because they lie too deep. */
  tooDeep: string[];
}

export function testTree(base: string): TestTree {
  const tree: TestTree = { files: [], tooDeep: [] };
  walk(base, 0, tree);
  return tree;
}

function walk(dir: string, depth: number, tree: TestTree): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const abs = join(dir, name);
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (st === undefined) continue;
    if (st.isDirectory()) {
      if (depth >= MAX_FOLDER_DEPTH) tree.tooDeep.push(abs);
      else walk(abs, depth + 1, tree);
    } else if (st.isFile() || name.endsWith(TEST_SUFFIX)) {
      // A test file that is a link, FIFO or socket is listed too: its reader reports it, located, instead of a silent skip.
      tree.files.push(abs);
    }
  }
}
