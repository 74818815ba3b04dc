/** `homed embed`: the embedder in use, why, and the vector it makes; `--backfill` re-embeds memory. */
import { defineCommand } from "../command.ts";

export const embedCommand = defineCommand({
  name: "embed",
  summary: "TEXT | --image FILE [--json]: show the embedder in use (and why) and the vector it makes; --backfill: re-embed stored memory with it",
  usage: ["homed embed [-models DIR] [--json] TEXT", "homed embed [-models DIR] [--json] --image FILE", "homed embed --backfill [-data DIR] [--json]"],
  description: "Also -embed-url and the other -embed-* flags, to check a remote embedder by hand.",
  flags: [
    { name: "backfill", default: "", help: "`homed embed`: re-embed stored events and blocks another embedder made (resumable; progress on stderr)" },
    { name: "image", value: "FILE", default: "", help: "`homed embed`: embed this JPEG/PNG/WebP image instead of text" },
  ],
  takesArguments: true,
  run: async ({ args, rest, settings }, io) => (await import("../../embed/index.ts")).runEmbedCommand(rest, args, settings(), io),
});
