/**
 * Asks the engine to collect garbage now, without waiting for it. Bun's collector lets a long
 * batch job's short-lived strings (segmentation, SQL arguments) pile up: a 20k-message import
 * reached ~400 MB of RSS in text processing alone; collecting once per chunk kept it under
 * 240 MB at no measurable cost in time.
 */
export function collectGarbageSoon(): void {
  Bun.gc(false);
}
