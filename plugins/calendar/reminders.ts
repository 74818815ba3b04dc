/**
 * Opt-in reminders, two kinds: for every event (`calendar_remind`: occurrences starting within the
 * next `minutesBefore` minutes are pushed once each as `calendar_upcoming`), and for one event
 * (`calendar_create`'s `remindMinutesBefore`: each occurrence pushed as `calendar_reminder` at
 * its start less that many minutes). Each remembers the session that asked for it, so the push
 * wakes that conversation. The settings and what was already sent live in
 * `<dir>/reminders.json`, so a restart neither forgets the choice nor repeats a push.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

const AlarmSchema = z.object({ minutesBefore: z.number().int().nonnegative(), session: z.string().optional() });
export type Alarm = z.infer<typeof AlarmSchema>;

const FileSchema = z.object({
  version: z.literal(1),
  minutesBefore: z.number().int().positive().nullable(),
  /** The session that turned reminders for every event on. */
  session: z.string().optional(),
  /** Reminders of single events, by uid. */
  alarms: z.record(z.string(), AlarmSchema).default({}),
  sent: z.array(z.string()),
});
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
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, minutesBefore: null, alarms: {}, sent: [] };
      throw error;
    }
    const parsed = FileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`Cannot read ${this.file}: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  setMinutesBefore(minutes: number | null, session?: string): void {
    const { session: _before, ...state } = this.read();
    this.write({ ...state, minutesBefore: minutes, ...(minutes && session ? { session } : {}) });
  }

  /** Sets (or with null removes) the reminder of one event. */
  setAlarm(uid: string, alarm: Alarm | null): void {
    const state = this.read();
    const { [uid]: _old, ...others } = state.alarms;
    this.write({ ...state, alarms: alarm ? { ...others, [uid]: alarm } : others });
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
