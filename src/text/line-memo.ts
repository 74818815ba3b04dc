/**
 * Remembers what a function gave for recent lines of text, for functions that never look across
 * a line break (segmentation, CJK bigrams): the result for "a\nb" is that of "a" then "b". A
 * history import indexes each message with its two neighbours on each side, so every line is
 * processed five times over; remembered, once or twice. Two generations of `size` lines each:
 * when the newer is full it becomes the older and the oldest is dropped whole — O(1), where
 * evicting one entry at a time from a Map cost 5 % of the import's text processing.
 */
export class LineMemo<T> {
  #newer = new Map<string, T>();
  #older = new Map<string, T>();

  constructor(private readonly size: number) {}

  get(line: string): T | undefined {
    const known = this.#newer.get(line);
    if (known !== undefined) return known;
    const old = this.#older.get(line);
    if (old !== undefined) this.set(line, old);
    return old;
  }

  set(line: string, value: T): void {
    if (this.#newer.size >= this.size) {
      this.#older = this.#newer;
      this.#newer = new Map();
    }
    this.#newer.set(line, value);
  }
}
