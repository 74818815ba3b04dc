/**
 * `homed token reset -data DIR`: the way back in after losing the admin token. Writes a new one
 * (mode 0600) and prints it once on stdout, for the person at the terminal — never to the log —
 * and ends every console login at once (whoever held the old token may have logged in with it).
 * A running daemon keeps accepting the token it read at start-up until it is restarted.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { announceServingDaemon, UsageError, type CommandIo, type Settings } from "../config/index.ts";
import { databasePath, openStore } from "../store/index.ts";
import { AUDIT_FILE, createLogger } from "../log/index.ts";
import { resetAdminToken, tokenHint } from "./admin-token.ts";
import { revokeAllConsoleSessions } from "./console-session.ts";

export const TOKEN_USAGE = "homed token reset -data DIR";

export type TokenCommandIo = Pick<CommandIo, "stdout" | "stderr">;

export async function runTokenCommand(rest: readonly string[], settings: Pick<Settings, "dataDir" | "dbUrl" | "dbSyncUrl" | "dbAuthToken">, io: TokenCommandIo): Promise<number> {
  const { dataDir } = settings;
  if (rest.length !== 1 || rest[0] !== "reset") throw new UsageError(`Cannot run token ${rest.join(" ")}: usage is ${TOKEN_USAGE}`);
  if (!existsSync(dataDir)) throw new UsageError(`Cannot reset the admin token: the data folder ${dataDir} does not exist`);
  // Opening a missing database would create one: where there is none, there are no logins to end.
  const database = databasePath(settings.dbUrl);
  const noDatabase = database !== undefined && !existsSync(database);
  if (noDatabase && !existsSync(join(dataDir, "admin.token"))) {
    throw new UsageError(`Cannot reset the admin token: there is no homed data in ${dataDir}; nothing was changed`);
  }
  announceServingDaemon(dataDir, io.stderr);
  let ended = 0;
  if (!noDatabase) {
    // Logins end first: if the database cannot be reached, the old token is still the one in use.
    const store = await openStore({ url: settings.dbUrl, syncUrl: settings.dbSyncUrl, authToken: settings.dbAuthToken, onWait: (message) => io.stderr(`homed: ${message}\n`) });
    try {
      ended = await revokeAllConsoleSessions(store.client);
    } finally {
      store.close();
    }
  }
  const token = resetAdminToken(dataDir);
  // The day's daemon log keeps an audit line of it (the hint, never the token); not on the terminal.
  const log = createLogger({ level: "info", dir: join(dataDir, "logs"), stderr: () => {}, audit: { path: join(dataDir, AUDIT_FILE) } });
  log.audit({ event: "admin_token_reset", who: "cli", outcome: "ok", detail: `admin token reset from the command line (now ${tokenHint(token)}); ${ended} console login(s) ended` });
  log.close();
  io.stdout(`${token}\n`);
  io.stderr(`homed: new admin token written to ${join(dataDir, "admin.token")}; ${ended} console login(s) ended; restart a running daemon for the new token to take effect\n`);
  return 0;
}
