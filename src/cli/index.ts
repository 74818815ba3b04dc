// What main.ts needs of the command line: the commands and the flags they accept. The commands'
// implementations are imported only when one runs (src/cli/command.ts).
export { COMMANDS } from "./commands/index.ts";
export { allFlags, commandHelp, helpText } from "./help.ts";
export { defineCommand, type Command, type CommandInput } from "./command.ts";
