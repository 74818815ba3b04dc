/**
 * LoCoMo (Maharana et al., ACL 2024; CC BY-NC 4.0) to homed's import format, exactly as
 * /work/shared/data/README.md specifies: one line per turn, `conversation` = sample_id,
 * `session` = session_N, `time` = the session's date-time in ISO 8601 (UTC), `role` user for
 * speaker_a and assistant for speaker_b, `id` = dia_id, the photo caption appended to the text.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

const TurnSchema = z.object({ speaker: z.string(), dia_id: z.string(), text: z.string(), blip_caption: z.string().optional() });
const SampleSchema = z.object({
  sample_id: z.string(),
  conversation: z.record(z.string(), z.unknown()),
  qa: z.array(z.object({ question: z.string(), evidence: z.array(z.string()), category: z.number() })),
});

export type ImportLine = { conversation: string; session: string; time: string; speaker: string; role: "user" | "assistant"; text: string; id: string };
export type Question = { id: string; conversation: string; query: string; evidence: string[]; category: number };
export type Locomo = { lines: ImportLine[]; questions: Question[] };

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** "1:56 pm on 8 May, 2023" → "2023-05-08T13:56:00Z". */
export function locomoTime(text: string): string {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm) on (\d{1,2}) (\w+),? (\d{4})$/i.exec(text.trim());
  if (!m) throw new Error(`Cannot read LoCoMo date-time: "${text}"`);
  const month = MONTHS.indexOf(m[5]!.toLowerCase());
  if (month < 0) throw new Error(`Cannot read LoCoMo date-time: unknown month in "${text}"`);
  const hour = (Number(m[1]) % 12) + (m[3]!.toLowerCase() === "pm" ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString().replace(".000Z", "Z");
}

export function convertLocomo(path: string): Locomo {
  const samples = z.array(SampleSchema).parse(JSON.parse(readFileSync(path, "utf8")));
  const lines: ImportLine[] = [];
  const questions: Question[] = [];
  for (const sample of samples) {
    const c = sample.conversation;
    const speakerA = String(c.speaker_a);
    const sessions = Object.keys(c)
      .filter((k) => /^session_\d+$/.test(k))
      .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
    for (const session of sessions) {
      const time = locomoTime(String(c[`${session}_date_time`]));
      for (const turn of z.array(TurnSchema).parse(c[session])) {
        const caption = turn.blip_caption ? ` [shares a photo: ${turn.blip_caption}]` : "";
        lines.push({
          conversation: sample.sample_id,
          session,
          time,
          speaker: turn.speaker,
          role: turn.speaker === speakerA ? "user" : "assistant",
          text: turn.text + caption,
          id: turn.dia_id,
        });
      }
    }
    sample.qa.forEach((qa, i) => {
      if (qa.category < 1 || qa.category > 4) return;
      questions.push({ id: `${sample.sample_id}#${i}`, conversation: sample.sample_id, query: qa.question, evidence: qa.evidence, category: qa.category });
    });
  }
  return { lines, questions };
}
