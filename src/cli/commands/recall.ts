/** `homed recall "query"`: search cold context (the command lives in src/memory/). */
import { defineCommand } from "../command.ts";

export const recallCommand = defineCommand({
  name: "recall",
  summary: "\"query\" | --queries FILE: search cold context (words, character grams, vectors fused by RRF)",
  usage: ["homed recall [-data DIR] [-conversation C] [-k N] [-channels LIST] [-since TIME] [-until TIME] [-explain] [-json] \"query\"", "homed recall [-data DIR] --queries FILE"],
  // Its flags are still in config's FLAGS, until the command moves here.
  flags: [],
  takesArguments: true,
  run: async ({ args, rest, settings }, io) => (await import("../../memory/index.ts")).runRecallCommand(rest, args, settings(), io),
});
