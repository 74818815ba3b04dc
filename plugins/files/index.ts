/** files: read, write and list files under one root folder, which nothing can escape. */
import { readdir } from "node:fs/promises";
import { definePlugin, defineTool, INLINE_MAX_BYTES, TextBytes, ToolFailure, z } from "../sdk/index.ts";
import { Confinement } from "./confine.ts";

/** The largest file files_read returns (its text comes through the shared segment above 64 KiB). */
export const MAX_READ_BYTES = 256 * 1024 * 1024;

const ConfigSchema = z.object({
  root: z.string().min(1),
  /** Larger reads are refused (and anything over what the plugin's half of the segment holds). */
  maxReadBytes: z.number().int().positive().default(MAX_READ_BYTES),
});

const PathSchema = z.string().min(1).describe("path relative to the root folder");

export const filesPlugin = definePlugin({
  name: "files",
  version: "1.0.0",
  description: "Read, write and list files inside one configured folder.",
  provides: ["files"],
  // Big file bodies travel through the segment, not stdio: each side gets half, so the plugin's
  // half holds a MAX_READ_BYTES file (its pages are taken only while a read is in flight).
  sharedMemory: true,
  sharedMemoryBytes: 2 * MAX_READ_BYTES + 1024 * 1024,
  config: ConfigSchema,
  tools: (config: z.infer<typeof ConfigSchema>, { shared }) => {
    const jail = new Confinement(config.root);
    return [
      defineTool({
        name: "files_read",
        description: "Read a UTF-8 text file.",
        input: z.object({ path: PathSchema }),
        run: async ({ path }) => {
          // Size and kind come from the open descriptor: the file read is the file checked.
          const handle = await jail.openExisting(path);
          try {
            const info = await handle.stat();
            if (!info.isFile()) throw new ToolFailure("not_a_file", `Cannot read ${path}: it is not a file`, { path });
            const limit = Math.min(config.maxReadBytes, shared.attached ? shared.capacity : INLINE_MAX_BYTES);
            if (info.size > limit) throw new ToolFailure("too_large", `Cannot read ${path}: ${info.size} bytes is over the ${limit}-byte limit`, { path, limit });
            // The bytes as they are: decoded once, by the kernel (no decode and re-encode here).
            return new TextBytes(await handle.readFile());
          } finally {
            await handle.close();
          }
        },
      }),
      defineTool({
        name: "files_write",
        description: "Create or replace a UTF-8 text file (its folder must exist unless parents is true).",
        input: z.object({ path: PathSchema, content: z.string(), parents: z.boolean().default(false) }),
        run: async ({ path, content, parents }) => {
          if (parents) await makeParents(jail, path);
          const handle = await jail.openForWrite(path);
          try {
            await handle.writeFile(content, "utf8");
          } finally {
            await handle.close();
          }
          return { path, bytes: Buffer.byteLength(content) };
        },
      }),
      defineTool({
        name: "files_list",
        description: "List a folder: names with their kind and size.",
        input: z.object({ path: PathSchema.default(".") }),
        run: async ({ path }) => {
          const folder = await jail.openFolder(path);
          try {
            // Listed through the verified descriptor, not the path, which may have changed since.
            const entries = await readdir(`/proc/self/fd/${folder.fd}`, { withFileTypes: true });
            return {
              path,
              entries: entries
                .map((e) => ({ name: e.name, kind: e.isDirectory() ? "folder" : e.isSymbolicLink() ? "link" : e.isFile() ? "file" : "other" }))
                .sort((a, b) => a.name.localeCompare(b.name)),
            };
          } finally {
            await folder.close();
          }
        },
      }),
    ];
  },
});

async function makeParents(jail: Confinement, path: string): Promise<void> {
  const parts = path.split("/").slice(0, -1);
  for (let i = 1; i <= parts.length; i++) await jail.makeFolder(parts.slice(0, i).join("/"));
}
