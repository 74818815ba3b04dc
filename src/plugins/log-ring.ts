/**
 * A plugin's own log: the last N lines of its stderr (and the host's notes about it), in a
 * fixed-size ring so a plugin that floods stderr costs bounded memory and never blocks.
 */
const DEFAULT_LINES = 500;
const MAX_LINE_CHARS = 2000;

export class LogRing {
  private readonly lines: string[] = [];
  private partial = "";
  private dropped = 0;
  private last = "";

  constructor(readonly capacity = DEFAULT_LINES) {}

  /**
   * Appends raw stderr text; lines are split on newlines, a trailing fragment waits for its end.
   * A line `admit` refuses is not kept (the caller counts it); returns how many were refused.
   */
  write(text: string, admit: () => boolean = () => true): number {
    const parts = (this.partial + text).split("\n");
    this.partial = cap(parts.pop() ?? "");
    let refused = 0;
    for (const line of parts) {
      if (line.trim() !== "") this.last = line;
      if (admit()) this.add(line);
      else refused++;
    }
    return refused;
  }

  /** The plugin's last non-empty stderr line (an unfinished one included), kept or not: what it said before it died. */
  get lastOutput(): string {
    return cap((this.partial.trim() !== "" ? this.partial : this.last).replace(/\r$/, ""));
  }

  /** Appends one line written by the host (state changes, dropped frames). */
  note(line: string): void {
    this.add(`[homed] ${line}`);
  }

  add(line: string): void {
    this.lines.push(cap(line.replace(/\r$/, "")));
    if (this.lines.length > this.capacity) {
      this.lines.shift();
      this.dropped++;
    }
  }

  /** The newest `count` lines, oldest first. */
  tail(count = this.capacity): string[] {
    return this.lines.slice(-count);
  }

  /** How many lines fell out of the ring. */
  get droppedLines(): number {
    return this.dropped;
  }
}

const cap = (line: string) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line);
