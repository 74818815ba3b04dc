/**
 * The vector channel's noise floor. Every text has neighbours in an embedding space, so the
 * vector channel always returns its full depth, and for a question nothing in memory answers,
 * those hits are noise that fusion still rewards. Measured (bench/vector-floor: the Universal
 * Sentence Encoder on LoCoMo dev, each question against the turns of the other conversations as
 * noise and against its own evidence turns as signal): unrelated pairs have a median cosine of
 * 0.093 (p90 0.241, p99 0.369), evidence pairs 0.322. At 0.10 the floor drops 52.7% of noise
 * pairs and 5.4% of evidence pairs (found by words and grams anyway); at 0.15, 69.7% and 13.9%;
 * at 0.20, 82.7% and 21.2%. Prevents: a memory nothing in the question points to riding into
 * the fused ranking on the vector channel alone. Measured on one model: a model with another
 * scale of cosines may need another floor.
 */
import type { Ranked } from "./channels.ts";

export const VECTOR_NOISE_FLOOR = 0.1;

/** The hits at or above the floor (cosine similarity scores). */
export const aboveNoiseFloor = (ranked: Ranked, floor: number = VECTOR_NOISE_FLOOR): Ranked => ranked.filter((hit) => hit.score >= floor);
