/**
 * A promise that settles on a later turn of the event loop, after pending I/O has had its turn:
 * how long synchronous work (src/text/pieces.ts) lets a waiting request in. Bun: setImmediate;
 * setTimeout(0) there is clamped to ~1.1 ms (measured), a 14 % tax on long texts. Deno: its
 * setImmediate (node:timers) did not let Deno.serve answer in between — /healthz waited
 * 0.8-1.9 s while a 200,000-character message was analysed (7 checks in a 5 s turn, against
 * 93-165 checks and a 6-12 ms median under Bun) — so a timer it is.
 */
import { setImmediate } from "node:timers";
import { RUNTIME } from "./which.ts";

export const nextMacrotask: () => Promise<void> = RUNTIME === "bun" ? () => new Promise<void>((resolve) => setImmediate(resolve)) : () => new Promise<void>((resolve) => setTimeout(resolve, 0));
