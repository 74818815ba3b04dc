/**
 * Recall's injection sized to the model's context window and to how the scores fall off (the
 * `window` thresholds of injection-config.ts). A short or unknown window gets the configured bands
 * unchanged; a larger one more memories, and longer ones, but past the configured bands only
 * memories that still score near the best — room alone never pulls in weak matches.
 */
import type { InjectionConfig } from "./injection-config.ts";

/** The thresholds in force for a window: the configured ones, scaled. */
export function sizedForWindow(config: InjectionConfig, contextWindow: number | undefined): InjectionConfig {
  const scale = contextWindow === undefined ? 1 : Math.min(config.window.maxScale, Math.max(1, contextWindow / config.window.baseTokens));
  if (scale === 1) return config;
  const band = (b: { items: number; chars: number }) => ({ items: Math.round(b.items * scale), chars: Math.round(b.chars * scale) });
  const bands = { immediate: band(config.bands.immediate), working: band(config.bands.working), background: band(config.bands.background) };
  const items = bands.immediate.items + bands.working.items + bands.background.items;
  return { ...config, bands, lineChars: Math.round(config.lineChars * Math.sqrt(scale)), k: Math.min(100, Math.max(config.k, items)) };
}

/** How many memories the configured (unscaled) bands hold. */
export const configuredItems = (config: InjectionConfig): number => config.bands.immediate.items + config.bands.working.items + config.bands.background.items;

/**
 * Ranked memories (best first) cut where the scores fall off: the first `kept` always stay (the
 * configured bands, as on any window); after them only those scoring at least `tailRatio` of the best.
 */
export function whileStrong<T extends { score: number }>(ranked: readonly T[], kept: number, tailRatio: number): T[] {
  const floor = (ranked[0]?.score ?? 0) * tailRatio;
  return ranked.filter((p, i) => i < kept || p.score >= floor);
}
