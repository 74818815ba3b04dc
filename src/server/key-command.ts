/**
 * `homed key create NAME [-partner P] [-scopes v1,mcp,a2a]`, `homed key list`, `homed key revoke
 * NAME`: per-app keys (app-keys.ts) on -data's database. A running daemon looks every key up
 * per request, so what this command does counts at once.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { announceServingDaemon, ensureWritableDir, UsageError, type CommandIo, type Settings } from "../config/index.ts";
import { AUDIT_FILE, createLogger } from "../log/index.ts";
import { databasePath, openStore } from "../store/index.ts";
import { AppKeys, KeyInputSchema } from "./app-keys.ts";

export const KEY_USAGE = "homed key create NAME [-partner P] [-scopes v1,mcp,a2a] | homed key list | homed key revoke NAME";

export type KeyFlags = { partner?: string; scopes?: string };

const date = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export async function runKeyCommand(
  rest: readonly string[],
  flags: KeyFlags,
  settings: Pick<Settings, "dataDir" | "dbUrl" | "dbSyncUrl" | "dbAuthToken">,
  io: Pick<CommandIo, "stdout" | "stderr">,
): Promise<number> {
  const [action, name, ...extra] = rest;
  const arity = action === "list" ? 0 : 1;
  if (!action || !["create", "list", "revoke"].includes(action) || (arity === 1 && !name) || extra.length || (arity === 0 && name)) {
    throw new UsageError(`Cannot run key ${rest.join(" ")}: usage is ${KEY_USAGE}`);
  }
  if (action !== "create" && (flags.partner || flags.scopes)) throw new UsageError(`-partner and -scopes go with key create only`);
  // Parsed before the database is opened: a bad name or scope changes nothing.
  const scopes = (flags.scopes || "v1,mcp")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const input = action === "create" ? KeyInputSchema.safeParse({ name, partner: flags.partner || undefined, scopes }) : undefined;
  if (input && !input.success) {
    const issue = input.error.issues[0]!;
    throw new UsageError(`Cannot create the key: ${issue.path[0] === "scopes" ? `-scopes ${flags.scopes}: give v1, mcp or v1,mcp (add a2a for the A2A channel)` : issue.message}`);
  }
  const database = databasePath(settings.dbUrl);
  const fresh = database !== undefined && !existsSync(database);
  // A key made before the first start is the README's own order (enable A2A, make a key, start):
  // create opens the database as the daemon would (folder, migrations); list and revoke have nothing to act on.
  if (fresh && action !== "create") throw new UsageError(`Cannot ${action} keys: there is no homed database in ${settings.dataDir} yet (homed key create NAME makes one)`);
  if (fresh) ensureWritableDir(settings.dataDir);
  announceServingDaemon(settings.dataDir, io.stderr);
  const store = await openStore({ url: settings.dbUrl, syncUrl: settings.dbSyncUrl, authToken: settings.dbAuthToken, onWait: (message) => io.stderr(`homed: ${message}\n`) });
  const keys = new AppKeys(store.client);
  try {
    if (action === "list") {
      const all = await keys.list();
      if (all.length === 0) io.stderr("homed: no app keys (homed key create NAME makes one)\n");
      for (const k of all)
        io.stdout(`${k.name}\tpartner=${k.partner ?? k.name}\tscopes=${k.scopes.join(",")}\tcreated=${date(k.createdAt)}\tlast-used=${k.lastUsedAt === null ? "never" : date(k.lastUsedAt)}\n`);
      return 0;
    }
    const audit = createLogger({ level: "info", dir: join(settings.dataDir, "logs"), stderr: () => {}, audit: { path: join(settings.dataDir, AUDIT_FILE) } });
    try {
      if (action === "revoke") {
        await keys.revoke(name!);
        audit.audit({ event: "app_key_revoked", who: "cli", outcome: "ok", detail: `app key '${name}' revoked from the command line` });
        io.stderr(`homed: key '${name}' revoked; apps holding it are refused from now on\n`);
        return 0;
      }
      const { key, view } = await keys.create(input!.data!);
      audit.audit({
        event: "app_key_created",
        who: "cli",
        outcome: "ok",
        detail: `app key '${view.name}' created from the command line (partner ${view.partner ?? view.name}, scopes ${view.scopes.join(",")})`,
      });
      io.stdout(`${key}\n`);
      io.stderr(`homed: key '${view.name}' made for ${view.scopes.map((s) => `/${s}`).join(" and ")} (partner ${view.partner ?? view.name}); it is shown this once, only its hash is kept\n`);
      return 0;
    } finally {
      audit.close();
    }
  } finally {
    store.close();
  }
}
