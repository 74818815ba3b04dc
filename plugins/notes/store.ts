/** Notes kept in one JSON file, replaced atomically (write a temporary file, then rename). */
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export const NoteSchema = z.object({
  id: z.string(),
  text: z.string(),
  tags: z.array(z.string()),
  created: z.string(),
  updated: z.string(),
});
export type Note = z.infer<typeof NoteSchema>;
const FileSchema = z.object({ version: z.literal(1), notes: z.array(NoteSchema) });

export class NoteStore {
  private readonly file: string;

  constructor(
    dir: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, "notes.json");
  }

  all(): Note[] {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const parsed = FileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`Cannot read ${this.file}: ${z.prettifyError(parsed.error)}`);
    return parsed.data.notes;
  }

  add(text: string, tags: string[]): Note {
    const stamp = this.now().toISOString();
    const note = { id: randomUUID().slice(0, 8), text, tags, created: stamp, updated: stamp };
    this.save([...this.all(), note]);
    return note;
  }

  update(id: string, change: { text?: string; tags?: string[] }): Note | undefined {
    const notes = this.all();
    const index = notes.findIndex((n) => n.id === id);
    if (index === -1) return undefined;
    const note = { ...notes[index]!, ...change, updated: this.now().toISOString() };
    notes[index] = note;
    this.save(notes);
    return note;
  }

  remove(id: string): boolean {
    const notes = this.all();
    const kept = notes.filter((n) => n.id !== id);
    if (kept.length === notes.length) return false;
    this.save(kept);
    return true;
  }

  private save(notes: Note[]): void {
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ version: 1, notes }, null, 1));
    renameSync(temp, this.file);
  }
}
