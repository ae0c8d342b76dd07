import type { Io } from "../host.js";

export type { Io };

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(io: Io): boolean {
  return Boolean(io.stderr.isTTY) && !("NO_COLOR" in io.env && io.env.NO_COLOR !== "");
}

/**
 * A one-line `[done/total]` counter on stderr for builds that take over a second, redrawn at most
 * ten times a second; nothing at all when stderr is not a terminal (CI logs, pipes, tests).
 */
export class Progress {
  private last = 0;
  private shown = false;

  constructor(
    private readonly io: Io,
    private readonly started: number,
    private readonly after = 1000,
  ) {}

  update(done: number, total: number): void {
    if (!this.io.stderr.isTTY) return;
    const now = performance.now();
    if (now - this.started < this.after || now - this.last < 100) return;
    this.last = now;
    this.shown = true;
    this.io.stderr.write(`\r\x1b[Kbuilding… ${done}/${total}`);
  }

  clear(): void {
    if (this.shown) this.io.stderr.write("\r\x1b[K");
    this.shown = false;
  }
}
