/**
 * Opt-in reminders: when set, occurrences starting within the next `minutesBefore` minutes are
 * pushed once each as `calendar_upcoming` ring events. The setting and what was already sent
 * live in `<dir>/reminders.json`, so a restart neither forgets the choice nor repeats a push.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const FileSchema = z.object({ version: z.literal(1), minutesBefore: z.number().int().positive().nullable(), sent: z.array(z.string()) });
type State = z.infer<typeof FileSchema>;

/** Keys of sent reminders kept: enough to never repeat one still inside any window. */
const KEEP_SENT = 1000;

export class ReminderState {
  private readonly file: string;

  constructor(dir: string) {
    this.file = join(dir, "reminders.json");
  }

  read(): State {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, minutesBefore: null, sent: [] };
      throw error;
    }
    const parsed = FileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`Cannot read ${this.file}: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  setMinutesBefore(minutes: number | null): void {
    this.write({ ...this.read(), minutesBefore: minutes });
  }

  /** Records keys as sent; returns those that were not yet. */
  markSent(keys: string[]): string[] {
    const state = this.read();
    const sent = new Set(state.sent);
    const fresh = keys.filter((k) => !sent.has(k));
    if (fresh.length) this.write({ ...state, sent: [...state.sent, ...fresh].slice(-KEEP_SENT) });
    return fresh;
  }

  private write(state: State): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(state)}\n`);
    renameSync(temporary, this.file);
  }
}
