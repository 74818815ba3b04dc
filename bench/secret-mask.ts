/**
 * What masking secrets costs a write: maskSecrets over 20,000 chat-like messages (~260 chars,
 * with look-alikes — dates, a phone number, an order number that fails Luhn), beside the token
 * count every imported message already pays (the baseline, same messages, same run). Prints
 * numbers; never pass/fail. Run: bun bench/secret-mask.ts
 */
import { countTokens, loadTokenizer, maskSecrets } from "../src/text/index.ts";

await loadTokenizer();
const texts = Array.from({ length: 20_000 }, (_, i) =>
  `Message ${i}: we talked about the trip to Lisbon on 2024-05-0${i % 9}, the token economy and order 4111111111111112; call +1 415 555 0132. `.repeat(2),
);
const time = (what: string, run: (text: string) => unknown) => {
  const started = performance.now();
  for (const text of texts) run(text);
  const ms = performance.now() - started;
  console.log(`${what}: ${ms.toFixed(1)} ms for ${texts.length} messages, ${((ms * 1000) / texts.length).toFixed(2)} µs each`);
};
for (let round = 1; round <= 3; round++) {
  console.log(`round ${round}`);
  time("  baseline countTokens", countTokens);
  time("  maskSecrets", maskSecrets);
}
