/** `homed version` (and `homed --version`). */
import { VERSION } from "../../version.ts";
import { defineCommand } from "../command.ts";

export const versionCommand = defineCommand({
  name: "version",
  summary: "print the version",
  usage: ["homed version", "homed --version"],
  flags: [],
  run: async (_input, io) => {
    io.stdout(`homed ${VERSION}\n`);
    return 0;
  },
});
