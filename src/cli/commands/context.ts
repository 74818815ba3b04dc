/** `homed context render --budget N FILE`: a context dump rendered under a budget, offline. */
import { defineCommand } from "../command.ts";

export const contextCommand = defineCommand({
  name: "context",
  summary: "render --budget N FILE: render a context dump (JSON array of events) under a token budget, as a request would carry it",
  usage: ["homed context render --budget N FILE"],
  description: "stdout: the rendered OpenAI-format messages as JSON; stderr: one audit line about the sequence.",
  flags: [{ name: "budget", value: "TOKENS", default: "", help: "token budget of `homed context render` (required there)" }],
  takesArguments: true,
  run: async ({ args, rest }, io) => (await import("../../context/index.ts")).runContextCommand(rest, args.flags.get("budget"), io),
});
