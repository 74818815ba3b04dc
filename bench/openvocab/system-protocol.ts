/**
 * What the open-vocabulary bench's parent and each system's child process (`./system-child.ts`)
 * say to each other, one JSON object a line: the parent starts a child with a `SystemSpec` (its one
 * command-line argument), the child answers `ready` once its system is built, then one `answer`
 * for each `question` line the parent writes on its stdin, in order. The child times its own
 * search (wall and CPU), so the pipe's and the parent's time never count.
 */
import { z } from "zod";
import { FUSION_METHODS } from "../../src/memory/index.ts";

/** How many ids a child answers with (hit@10 is the widest figure). */
export const K = 10;

/** Which system a child runs, over what: homed over an imported store, or a baseline built from the history file. */
export const SystemSpecSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("homed"), data: z.string(), method: z.enum(FUSION_METHODS) }),
  z.object({ kind: z.literal("minisearch"), history: z.string() }),
  z.object({ kind: z.literal("fts5"), history: z.string(), db: z.string() }),
]);
export type SystemSpec = z.infer<typeof SystemSpecSchema>;

/** Parent → child: one query, over all memory or within one conversation. */
export const QuestionSchema = z.object({ text: z.string(), conversation: z.string().optional() });
export type Question = z.infer<typeof QuestionSchema>;

/**
 * Child → parent. `ready` carries the build's figure for a system built in the child (MiniSearch,
 * FTS5); an `answer`'s `ids` are best first, `null` when the system cannot ask the query at all.
 */
export const ChildMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready"), build: z.string().optional() }),
  z.object({ type: z.literal("answer"), ids: z.array(z.string()).nullable(), ms: z.number().nonnegative(), cpuMs: z.number().nonnegative() }),
]);
export type ChildMessage = z.infer<typeof ChildMessageSchema>;
export type Answer = Extract<ChildMessage, { type: "answer" }>;

/** One line of a child's stdout as a message, or an error that quotes the line. */
export function parseChildLine(line: string): ChildMessage {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new Error(`not a JSON line from a system child: ${line.slice(0, 200)}`);
  }
  const parsed = ChildMessageSchema.safeParse(json);
  if (!parsed.success) throw new Error(`unexpected message from a system child (${parsed.error.issues[0]?.message}): ${line.slice(0, 200)}`);
  return parsed.data;
}
