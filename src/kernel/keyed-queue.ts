/**
 * Work queued by key: what is run under one key waits for what was run under it before (its
 * failure included); different keys never wait for each other. The kernel keeps two: whole turns
 * that read a session's stored history, and the short writes to a session's store (kernel.ts).
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(work);
    this.tails.set(key, next);
    return next.finally(() => {
      // The last one out removes the key: the map holds only keys with work pending.
      if (this.tails.get(key) === next) this.tails.delete(key);
    });
  }
}
