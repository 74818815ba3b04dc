/**
 * MADial-Bench (He et al., NAACL 2025; MIT), Chinese user-1 half, to homed's import format,
 * exactly as /work/shared/data/README.md specifies: each memory one message
 * `{conversation: "user-<user-id>", session: "memories", time: "<time>T12:00:00Z", speaker: <the
 * user's name in the dialogues>, role: "user", text: <event>, id: "M<id>"}`; each dialogue's
 * query is its utterances before the test turn (no <BOD>), stripped, joined with newlines.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

const MemorySchema = z.object({ time: z.string(), event: z.string(), "user-id": z.number(), id: z.union([z.string(), z.number()]) });
const DialogueSchema = z.object({
  dialogue: z.array(z.string()),
  "test-turn": z.array(z.number()).min(1),
  "relevant-id": z.array(z.number()),
  "user-id": z.number(),
  id: z.number(),
});

export type ImportLine = { conversation: string; session: string; time: string; speaker: string; role: "user"; text: string; id: string };
export type Query = { id: string; conversation: string; query: string; gold: string[] };

const jsonl = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as unknown);

export type Dialogue = z.infer<typeof DialogueSchema>;

/** The dev dialogues, validated: their utterance lines are `<Name>:"…"` between `<BOD>` and `<EOD>`. */
export function readDialogues(dir: string): Dialogue[] {
  return jsonl(`${dir}/dialogue-dev.jsonl`).map((d) => DialogueSchema.parse(d));
}

export function convertMadial(dir: string): { lines: ImportLine[]; queries: Query[] } {
  const dialogues = readDialogues(dir);
  // The user's name is the speaker tag of their utterances: `<Bart>:"…"`.
  const names = new Map<number, string>();
  for (const d of dialogues) {
    for (const u of d.dialogue) {
      const name = /^<([^>]+)>:/.exec(u.trim())?.[1];
      if (name && name !== "Assistant" && !names.has(d["user-id"])) names.set(d["user-id"], name);
    }
  }
  const lines = jsonl(`${dir}/memory-dev.jsonl`).map((row) => {
    const m = MemorySchema.parse(Object.values(row as Record<string, unknown>)[0]);
    const speaker = names.get(m["user-id"]);
    if (!speaker) throw new Error(`Cannot convert MADial memory ${m.id}: no dialogue names user ${m["user-id"]}`);
    return { conversation: `user-${m["user-id"]}`, session: "memories", time: `${m.time}T12:00:00Z`, speaker, role: "user" as const, text: m.event, id: `M${m.id}` };
  });
  const queries = dialogues.map((d) => ({
    id: String(d.id),
    conversation: `user-${d["user-id"]}`,
    query: d.dialogue
      .slice(0, d["test-turn"][0])
      .map((u) => u.trim())
      .filter((u) => u !== "<BOD>" && u !== "")
      .join("\n"),
    gold: d["relevant-id"].map((id) => `M${id}`),
  }));
  return { lines, queries };
}
