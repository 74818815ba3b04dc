/** `homed` / `homed serve`: the daemon — console and API on -addr, memory in -data. */
import { defineCommand } from "../command.ts";

export const serveCommand = defineCommand({
  name: "serve",
  summary: "run the daemon: console and API on -addr, memory in -data (the default command)",
  usage: ["homed [serve] [-data DIR] [-addr HOST:PORT] [-db URL] [-log-level LEVEL]"],
  description: "Runs until SIGINT or SIGTERM; one daemon per data folder.",
  flags: [],
  run: async ({ settings }) => (await import("../../daemon/index.ts")).runDaemon(settings()),
});
