/** `homed model`: install a sentence encoder with one command, and list what is installed and in use. */
import { defineCommand } from "../command.ts";

export const modelCommand = defineCommand({
  name: "model",
  summary: "pull NAME|URL: download a sentence encoder into <data>/models (sha256-checked, resumable) and use it; list: the catalog and what is installed",
  usage: ["homed model pull [-data DIR] [-models DIR] NAME [--url BASE]", "homed model pull URL", "homed model list"],
  description: "NAME is one of the catalog's (homed model list); --url fetches its files from a mirror. A URL serves homed-model.json describing the files.",
  flags: [{ name: "url", value: "BASE", default: "", help: "`homed model pull`: fetch the catalog model's files from this base URL instead" }],
  takesArguments: true,
  run: async ({ args, rest, settings }, io) => (await import("../../embed/index.ts")).runModelCommand(rest, args, settings(), io),
});
