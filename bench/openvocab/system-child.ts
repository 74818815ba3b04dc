/**
 * One system of the open-vocabulary bench in a process of its own, so that no other system's heap
 * is collected on its time (MiniSearch's in-memory index of 100k messages, collected when homed's
 * allocations trigger it, made homed's p50 ~3.8 ms in one process against ~2.9 ms alone).
 * `bun bench/openvocab/system-child.ts '<SystemSpec as JSON>'`: builds or opens the system, prints
 * `ready`, then answers each question line on stdin with one answer line, in order, timing the
 * search alone (`./system-protocol.ts`). Exits when stdin closes.
 */
import { createInterface } from "node:readline";
import { collectGarbage } from "../../src/runtime/index.ts";
import { openSystem } from "./systems.ts";
import { type ChildMessage, QuestionSchema, SystemSpecSchema } from "./system-protocol.ts";

const send = (message: ChildMessage) => process.stdout.write(`${JSON.stringify(message)}\n`);

const system = await openSystem(SystemSpecSchema.parse(JSON.parse(process.argv[2] ?? "null")));
// The build's garbage collected now, before any query: not later, on another system's turn.
collectGarbage(true);
send({ type: "ready", ...(system.build === undefined ? {} : { build: system.build }) });
// One question at a time: the loop awaits each search before it reads the next line.
for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
  const question = QuestionSchema.parse(JSON.parse(line));
  // The whole process's CPU time, so a collection's or a worker's time during the search counts too.
  const cpu = process.cpuUsage();
  const started = performance.now();
  const ids = await system.search(question.text, question.conversation);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  send({ type: "answer", ids: ids ?? null, ms, cpuMs: (used.user + used.system) / 1000 });
}
system.close();
