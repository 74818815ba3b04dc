/** notes: the agent's scratch notes — add, list (by tag or words), update, delete. */
import { definePlugin, defineTool, ToolFailure, z } from "../sdk/index.ts";
import { NoteStore } from "./store.ts";

const ConfigSchema = z.object({ dir: z.string().min(1) });
const Tags = z.array(z.string().min(1).max(40)).max(20);

export const notesPlugin = definePlugin({
  name: "notes",
  version: "1.0.0",
  description: "Keep short notes with tags in a folder.",
  provides: ["notes"],
  config: ConfigSchema,
  tools: (config: z.infer<typeof ConfigSchema>) => {
    const store = new NoteStore(config.dir);
    const gone = (id: string) => new ToolFailure("note_not_found", `Cannot find note ${id}`, { id, next_action: "call notes_list to see the ids" });
    return [
      defineTool({
        name: "notes_add",
        description: "Add a note.",
        input: z.object({ text: z.string().min(1).max(20_000), tags: Tags.default([]) }),
        run: ({ text, tags }) => ({ note: store.add(text, tags) }),
      }),
      defineTool({
        name: "notes_list",
        description: "List notes, newest first; optionally only those with a tag or containing every given word.",
        input: z.object({ tag: z.string().optional(), query: z.string().optional(), limit: z.number().int().positive().max(500).default(50) }),
        run: ({ tag, query, limit }) => {
          const words = (query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
          const notes = store
            .all()
            .filter((n) => !tag || n.tags.includes(tag))
            .filter((n) => words.every((w) => n.text.toLowerCase().includes(w)))
            .reverse();
          return { total: notes.length, notes: notes.slice(0, limit) };
        },
      }),
      defineTool({
        name: "notes_update",
        description: "Change a note's text or tags.",
        input: z.object({ id: z.string(), text: z.string().min(1).max(20_000).optional(), tags: Tags.optional() }),
        run: ({ id, text, tags }) => {
          const note = store.update(id, { ...(text !== undefined ? { text } : {}), ...(tags !== undefined ? { tags } : {}) });
          if (!note) throw gone(id);
          return { note };
        },
      }),
      defineTool({
        name: "notes_delete",
        description: "Delete a note.",
        input: z.object({ id: z.string() }),
        run: ({ id }) => {
          if (!store.remove(id)) throw gone(id);
          return { deleted: id };
        },
      }),
    ];
  },
});
