/** Notes kept in one JSON file, replaced atomically (write a temporary file, then rename). */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { JsonListFile } from "../sdk/index.ts";

export const NoteSchema = z.object({
  id: z.string(),
  text: z.string(),
  tags: z.array(z.string()),
  created: z.string(),
  updated: z.string(),
});
export type Note = z.infer<typeof NoteSchema>;

export class NoteStore {
  private readonly list: JsonListFile<Note>;

  constructor(
    dir: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.list = new JsonListFile(dir, "notes.json", "notes", NoteSchema);
  }

  all(): Note[] {
    return this.list.read();
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
    this.list.write(notes);
  }
}
