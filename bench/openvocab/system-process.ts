/**
 * The parent's side of a system's child process (`./system-child.ts`): starts it, waits for its
 * `ready`, and asks it questions, each answer parsed and checked (`./system-protocol.ts`). A child
 * that exits, or says something else than the awaited message, fails the questions waiting on it
 * with an error saying so, rather than leaving the bench hanging.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { scriptCommand } from "../../src/runtime/index.ts";
import { type Answer, type ChildMessage, parseChildLine, type Question, type SystemSpec } from "./system-protocol.ts";

const SYSTEM_CHILD = fileURLToPath(new URL("./system-child.ts", import.meta.url));

export type SystemProcess = {
  name: string;
  /** The build's figure, for a system built in its child. */
  build: string | undefined;
  ask(question: Question): Promise<Answer>;
  /** Closes the child's stdin and waits for it to exit. */
  close(): Promise<void>;
  /** For a parent exiting in a hurry. */
  kill(): void;
};

type Waiter = { type: ChildMessage["type"]; resolve(message: ChildMessage): void; reject(error: Error): void };

/** Starts `spec`'s child (`command` runs the child script; a test may give another) and resolves once it is ready. */
export async function startSystem(name: string, spec: SystemSpec, command: readonly string[] = scriptCommand(SYSTEM_CHILD)): Promise<SystemProcess> {
  const child: ChildProcess = spawn(command[0]!, [...command.slice(1), JSON.stringify(spec)], { stdio: ["pipe", "pipe", "inherit"] });
  const waiting: Waiter[] = [];
  let ended: Error | undefined;
  const end = (error: Error) => {
    ended ??= error;
    for (const waiter of waiting.splice(0)) waiter.reject(ended);
  };
  createInterface({ input: child.stdout!, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    const waiter = waiting.shift();
    if (waiter === undefined) return end(new Error(`${name}: its child said something unasked: ${line.slice(0, 200)}`));
    try {
      const message = parseChildLine(line);
      if (message.type !== waiter.type) throw new Error(`${name}: its child sent ${message.type} where ${waiter.type} was awaited`);
      waiter.resolve(message);
    } catch (error) {
      waiter.reject(error as Error);
    }
  });
  const closed = new Promise<void>((resolve) =>
    child.on("close", (code, signal) => {
      end(new Error(`${name}: its child process exited (${signal ?? `code ${code}`})`));
      resolve();
    }),
  );
  child.on("error", end);
  // A write to a child that has gone fails here too; its "close" above says why, to the waiting question.
  child.stdin!.on("error", () => {});
  const next = (type: ChildMessage["type"]) =>
    new Promise<ChildMessage>((resolve, reject) => {
      if (ended) reject(ended);
      else waiting.push({ type, resolve, reject });
    });

  const ready = await next("ready");
  return {
    name,
    build: ready.type === "ready" ? ready.build : undefined,
    ask: async (question) => {
      const answer = next("answer");
      child.stdin!.write(`${JSON.stringify(question)}\n`);
      return (await answer) as Answer;
    },
    close: async () => {
      child.stdin!.end();
      await closed;
    },
    kill: () => child.kill(),
  };
}
