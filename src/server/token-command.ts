/**
 * `homed token reset -data DIR`: the way back in after losing the admin token. Writes a new one
 * (mode 0600) and prints it once on stdout, for the person at the terminal — never to the log.
 * A running daemon keeps the token it read at start-up until it is restarted.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../config/index.ts";
import { resetAdminToken } from "./admin-token.ts";

export const TOKEN_USAGE = "homed token reset -data DIR";

export type TokenCommandIo = { stdout: (text: string) => void; stderr: (text: string) => void };

export function runTokenCommand(rest: readonly string[], dataDir: string, io: TokenCommandIo): number {
  if (rest.length !== 1 || rest[0] !== "reset") throw new UsageError(`Cannot run token ${rest.join(" ")}: usage is ${TOKEN_USAGE}`);
  if (!existsSync(dataDir)) throw new UsageError(`Cannot reset the admin token: the data folder ${dataDir} does not exist`);
  const token = resetAdminToken(dataDir);
  io.stdout(`${token}\n`);
  io.stderr(`homed: new admin token written to ${join(dataDir, "admin.token")}; restart a running daemon for it to take effect\n`);
  return 0;
}
