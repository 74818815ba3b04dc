/** `homed model`: install a model (a sentence encoder, Chinese-CLIP) with one command, and list what is installed and in use. */
import { defineCommand } from "../command.ts";

export const modelCommand = defineCommand({
  name: "model",
  summary: "pull NAME|URL: download a model (sentence encoder, Chinese-CLIP) into <data>/models (sha256-checked, resumable) and use it; list: the catalog and what is installed",
  usage: ["homed model pull [-data DIR] [-models DIR] NAME [--mirror HUB | --url BASE]", "homed model pull URL", "homed model list"],
  description:
    "NAME is one of the catalog's (homed model list). Files come from the Hugging Face Hub, or a mirror of it: --mirror, HOMED_MODELS_MIRROR or HF_ENDPOINT, or models.mirror in homed.json; --url is a plain folder holding the files. HTTPS_PROXY is honoured. A URL serves homed-model.json describing the files.",
  flags: [
    { name: "url", value: "BASE", default: "", help: "`homed model pull`: fetch the catalog model's files from this folder (BASE/<path>) instead" },
    { name: "mirror", value: "HUB", default: "", help: "`homed model pull`: a Hugging Face mirror serving HUB/<repo>/resolve/<revision>/<path>" },
  ],
  takesArguments: true,
  run: async ({ args, rest, settings }, io) => (await import("../../embed/index.ts")).runModelCommand(rest, args, settings(), io),
});
