/**
 * Which runtime runs homed: Bun (the compiled binary and `bun src/main.ts`) or Deno 2
 * (`deno task start`). Each runtime-specific file under src/runtime/ picks its side with this;
 * nothing outside src/runtime/ asks.
 */
export type RuntimeName = "bun" | "deno";

function detect(): RuntimeName {
  if ("Bun" in globalThis) return "bun";
  if ("Deno" in globalThis) return "deno";
  throw new Error("homed runs under Bun or Deno 2; this runtime is neither");
}

export const RUNTIME: RuntimeName = detect();
