/** A point in a source file: 0-based offset, 1-based line and column (UTF-16 units, like tsc). */
export interface Position {
  offset: number;
  line: number;
  column: number;
}

/** A span of a source file; `source` is the path as the user wrote it (relative to the project). */
export interface Location {
  source: string;
  start: Position;
  end: Position;
}

export type Severity = "error" | "warning" | "info";

/** One problem found by a phase. Codes are stable: `RYE` + four digits, listed in codes.ts. */
export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  loc?: Location;
  notes?: { message: string; loc?: Location }[];
}

/** Collects diagnostics for one phase; passed into each check so checks stay pure and testable. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];

  add(d: Diagnostic): void {
    this.items.push(d);
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }
}

/** Maps offsets of one text to line/column positions (binary search over line starts). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  position(offset: number): Position {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { offset, line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }

  location(source: string, start: number, end: number): Location {
    return { source, start: this.position(start), end: this.position(end) };
  }
}
