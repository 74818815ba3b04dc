/** `homed key create|list|revoke`: per-app API keys for /v1 and /mcp (src/server/app-keys.ts). */
import { defineCommand, stringFlag } from "../command.ts";

export const keyCommand = defineCommand({
  name: "key",
  summary: "create NAME | list | revoke NAME: API keys that let one app reach /v1 and /mcp, never /api",
  usage: ["homed key create NAME [-partner P] [-scopes v1,mcp,a2a]", "homed key list", "homed key revoke NAME"],
  description:
    "create prints the new key once, on stdout; only its hash is kept. The app's turns belong to the request's `user`, else -partner P, else NAME (-partner is the flag `homed chat` declares). revoke takes effect at once, also while the daemon runs.",
  // -partner is declared once, by `homed chat`: flag names are shared by every command's parser.
  flags: [{ name: "scopes", value: "LIST", default: "v1,mcp", help: "what the key opens, comma-separated: v1, mcp, a2a (the A2A channel; only when named)" }],
  takesArguments: true,
  run: async ({ args, rest, settings }, io) =>
    (await import("../../server/index.ts")).runKeyCommand(rest, { partner: stringFlag(args, "partner"), scopes: stringFlag(args, "scopes") }, settings(), io),
});
