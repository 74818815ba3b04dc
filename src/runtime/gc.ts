/**
 * Asks the engine to collect garbage now. Bun's collector lets a long batch job's short-lived
 * strings (segmentation, SQL arguments) pile up: a 100k-message import peaked at ~600-740 MB of
 * RSS without help. `full`: a synchronous full collection (tens of milliseconds); otherwise
 * an eager one that does not wait.
 */
export function collectGarbage(full: boolean): void {
  Bun.gc(full);
}
