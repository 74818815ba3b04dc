/**
 * A `homed` command: its name, its help and its own flags, and how it runs. Each command is one
 * file in src/cli/commands/ whose `run` imports the implementation only when the command runs
 * (a plugin process must not pay for loading the daemon: see main.ts).
 */
import { UsageError, type CommandIo, type FlagSpec, type ParsedArgs, type Settings } from "../config/index.ts";
import { HomedError } from "../errors/index.ts";

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

/** Exactly `count` positional arguments after the command, or a usage error naming the usage. */
export function expectArguments(rest: readonly string[], count: number, usage: string): void {
  if (rest.length !== count) throw new UsageError(`${rest.length < count ? "missing" : "too many"} arguments: usage: ${usage}`);
}

/** A bad input file or line: reported as one "Cannot X: reason" line, without a stack. */
export class InputError extends HomedError {
  constructor(message: string, options?: ErrorOptions) {
    super("input", message, options);
  }
}
