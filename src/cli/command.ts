/**
 * A `homed` command: its name, its help and its own flags, and how it runs. Each command is one
 * file in src/cli/commands/ whose `run` imports the implementation only when the command runs
 * (a plugin process must not pay for loading the daemon: see main.ts).
 */
import type { CommandIo, FlagSpec, ParsedArgs, Settings } from "../config/index.ts";

export type CommandInput = {
  args: ParsedArgs;
  /** The words after the command's name (empty unless `takesArguments`). */
  rest: string[];
  /** The settings from the flags every command shares (-data, -db, -addr, ...) and the environment. */
  settings(): Settings;
};

export type Command = {
  name: string;
  /** One line for `homed --help`, after the name. */
  summary: string;
  /** `homed NAME --help`: the usage lines, then what the command does. */
  usage: readonly string[];
  description?: string;
  /** The flags only this command reads; the shared ones (config's FLAGS) are every command's. */
  flags: readonly FlagSpec[];
  takesArguments?: boolean;
  run(input: CommandInput, io: CommandIo): Promise<number>;
};

export const defineCommand = (command: Command): Command => command;

/** A flag's string value, or undefined when absent (a boolean flag given a value is caught by the parser). */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === "string" ? value : undefined;
}
