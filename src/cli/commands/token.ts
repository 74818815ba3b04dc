/** `homed token reset -data DIR`: a new admin token, printed once; every console login ends. */
import { defineCommand } from "../command.ts";

export const tokenCommand = defineCommand({
  name: "token",
  summary: "reset -data DIR: write a new admin token (the console's login), print it and end every console login; restart a running daemon after",
  usage: ["homed token reset -data DIR"],
  description: "A running daemon keeps the token it read at start-up until it is restarted.",
  flags: [],
  takesArguments: true,
  run: async ({ rest, settings }, io) => (await import("../../server/index.ts")).runTokenCommand(rest, settings(), io),
});
