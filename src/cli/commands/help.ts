/** `homed help [COMMAND]` (and `homed --help`, `homed COMMAND --help`). */
import { UsageError } from "../../config/index.ts";
import { VERSION } from "../../version.ts";
import { defineCommand } from "../command.ts";
import { commandHelp, helpText } from "../help.ts";

export const helpCommand = defineCommand({
  name: "help",
  summary: "show this help; help COMMAND: that command's usage",
  usage: ["homed help [COMMAND]", "homed [COMMAND] --help"],
  flags: [],
  takesArguments: true,
  run: async ({ rest }, io) => {
    // Not imported at the top: the list includes this command.
    const { COMMANDS } = await import("./index.ts");
    const [name, extra] = rest;
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" (usage: homed help [COMMAND])`);
    if (name === undefined) {
      io.stdout(helpText(VERSION, COMMANDS));
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === name);
    if (!command) throw new UsageError(`unknown command "${name}" (see homed --help)`);
    io.stdout(commandHelp(command));
    return 0;
  },
});
