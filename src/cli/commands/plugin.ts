/** `homed plugin run NAME`: a built-in plugin on stdin/stdout (the daemon starts these itself). */
import { UsageError } from "../../config/index.ts";
// Directly, not through runtime/index.ts: a plugin process must not load the server to get it.
import { USER_UMASK_ENV, useUserUmaskFrom } from "../../runtime/file-modes.ts";
import { defineCommand } from "../command.ts";

export const pluginCommand = defineCommand({
  name: "plugin",
  summary: "run NAME: serve a built-in plugin (files, shell, notes, web_fetch, terminal) on stdin/stdout; the daemon starts these itself",
  usage: ["homed plugin run NAME"],
  flags: [],
  takesArguments: true,
  run: async ({ rest }) => {
    // A built-in plugin working in the user's own folder gets the user's umask back (see
    // src/daemon/plugins.ts); only this command honours the variable.
    useUserUmaskFrom(process.env[USER_UMASK_ENV]);
    return (await import("../../../plugins/index.ts")).runPluginCommand(rest, (message) => new UsageError(message));
  },
});
