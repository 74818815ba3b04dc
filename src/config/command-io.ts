/**
 * What a command gets from the process: one type for every `homed` command. A command that needs
 * less takes `Pick<CommandIo, ...>`, so a test passes only what it captures.
 */
export type CommandIo = {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Progress bars are drawn only on a terminal. */
  isTty: boolean;
  stdin: NodeJS.ReadableStream;
};
