/**
 * Private files and secrets at rest (issue 14.2), on a real daemon started under umask 022:
 * the data folder is 0700 and every file homed creates in it 0600 (database, WAL, SHM, logs,
 * keys, plugin data, the models manifest); API keys are not in the database's bytes; a folder
 * from an earlier homed is tightened with a log line and its plaintext key sealed.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "../../src/store/index.ts";
import { TINY_CLIP_DIR } from "../fixtures/make-tiny-clip.ts";
import { SOURCE_HOMED, startDaemon, until, type Daemon } from "../support/process.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir } from "../support/temp-dir.ts";

const KEY = "sk-test-0123456789-PLAINTEXT-MARKER";

/** The daemon from source, started through a shell that sets umask 022 first. */
async function startUnderUmask022(data: string, extraArgs: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<Daemon & { headers: Record<string, string> }> {
  const daemon = await startDaemon(["/bin/sh", "-c", 'umask 022 && exec "$0" "$@"', ...SOURCE_HOMED, "-data", data, "-addr", "127.0.0.1:0", ...extraArgs], { env });
  const token = readFileSync(join(data, "admin.token"), "utf8").trim();
  return { ...daemon, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } };
}

/** Every entry under `dir` (the folder itself included) whose mode is not owner-only: 0700 folders, 0600 files. */
function notPrivate(dir: string): string[] {
  const wrong: string[] = [];
  const visit = (path: string) => {
    const stats = lstatSync(path);
    const mode = stats.mode & 0o777;
    const expected = stats.isDirectory() ? 0o700 : 0o600;
    if (mode !== expected) wrong.push(`${path.slice(dir.length) || "/"} is ${mode.toString(8)}`);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return wrong;
}

/** The database's bytes as they sit on disk, main file and WAL together. */
const dbBytes = (data: string) =>
  ["homed.db", "homed.db-wal"]
    .map((name) => {
      try {
        return readFileSync(join(data, name)).toString("latin1");
      } catch {
        return "";
      }
    })
    .join("");

const turn = async (daemon: Daemon & { headers: Record<string, string> }, content: string) => {
  const session = (await (await fetch(`${daemon.url}/api/sessions`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ partner: "p" }) })).json()) as { id: string };
  return await (await fetch(`${daemon.url}/api/sessions/${session.id}/messages`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ content }) })).text();
};

describe("private files and secrets at rest", () => {
  const roots: string[] = [];
  const providers: ScriptedProvider[] = [];
  after(async () => {
    for (const p of providers) await p.close();
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });

  test("under umask 022 a new data folder is 0700, every file homed makes in it 0600, and an API key never reaches the database's bytes", async () => {
    const root = tempDir("homed-private-").path;
    roots.push(root);
    const data = join(root, "data");
    // The models folder is the user's (copied under umask 022); the manifest homed writes in it is homed's.
    const models = join(root, "models");
    cpSync(join(TINY_CLIP_DIR, "fp32"), join(models, "chinese-clip-vit-b16-onnx"), { recursive: true });
    const provider = await startScriptedProvider([
      {
        toolCalls: [
          { id: "c1", name: "files_write", arguments: JSON.stringify({ path: "todo.txt", content: "buy milk" }) },
          { id: "c2", name: "notes_add", arguments: JSON.stringify({ text: "milk" }) },
        ],
      },
      { content: "Written." },
    ]);
    providers.push(provider);
    const daemon = await startUnderUmask022(data, ["-models", models], { ...process.env, HOMED_BASE_URL: provider.url, HOMED_MODEL: "scripted" });
    try {
      await until(() => /plugins: .*files running/.test(daemon.stderr()), "the plugins to start");
      assert.match(await turn(daemon, "note it"), /event: done/);
      assert.equal(readFileSync(join(data, "files", "todo.txt"), "utf8"), "buy milk");
      const added = await fetch(`${daemon.url}/api/providers`, { method: "POST", headers: daemon.headers, body: JSON.stringify({ name: "x", baseUrl: provider.url, model: "m", apiKey: KEY }) });
      assert.equal(added.status, 201, await added.text());

      const names = readdirSync(data);
      for (const name of ["homed.db", "homed.db-wal", "homed.db-shm", "admin.token", "secrets.key", "audit.log", "logs", "notes", "files"])
        assert.ok(names.includes(name), `${name} is in the data folder (${names})`);
      assert.deepEqual(notPrivate(data), []);
      assert.equal(statSync(join(models, "chinese-clip-vit-b16-onnx", "homed-manifest.json")).mode & 0o777, 0o600, "the models manifest homed wrote");
      assert.ok(!dbBytes(data).includes(KEY), "the key is not in homed.db or its WAL");
      assert.ok(dbBytes(data).includes("homed-secret-v1:"), "a sealed value is");
    } finally {
      assert.equal((await daemon.stop()).code, 0, daemon.stderr());
    }
    assert.deepEqual(notPrivate(data), [], "after a clean stop too");
    assert.ok(!dbBytes(data).includes(KEY));
  });

  test("a data folder from an earlier homed: loose modes are tightened with a log line, a plaintext key is sealed and still used", async () => {
    const root = tempDir("homed-private-").path;
    roots.push(root);
    const data = join(root, "data");
    const workdir = join(root, "work");
    // What an earlier homed left under umask 022: a 0755 folder, 0644 files, a key in plaintext.
    mkdirSync(join(data, "logs"), { recursive: true, mode: 0o755 });
    mkdirSync(join(data, "notes"), { mode: 0o755 });
    const provider = await startScriptedProvider([{ toolCalls: [{ id: "c1", name: "files_write", arguments: JSON.stringify({ path: "shared.txt", content: "for the team" }) }] }, { content: "ok" }]);
    providers.push(provider);
    const store = await openStore({ url: `file:${join(data, "homed.db")}` });
    await store.client.batch(
      [
        { sql: "INSERT INTO settings (key, value, updated_at) VALUES ('providers', ?, 0)", args: [JSON.stringify([{ id: "old", name: "old", baseUrl: provider.url, model: "m" }])] },
        { sql: "INSERT INTO settings (key, value, updated_at) VALUES ('activeProvider', '\"old\"', 0)", args: [] },
        { sql: "INSERT INTO secrets (name, value, updated_at) VALUES ('provider:old:apiKey', ?, 0)", args: [KEY] },
        // More keys on the page: rewriting them leaves old cells' bytes in its free space unless
        // they are zeroed (measured with 20 rows: 2 plaintexts left without secure_delete).
        ...Array.from({ length: 19 }, (_, i) => ({ sql: "INSERT INTO secrets (name, value, updated_at) VALUES (?, ?, 0)", args: [`provider:gone${i}:apiKey`, `${KEY}-${i}`] })),
      ],
      "write",
    );
    store.close();
    writeFileSync(join(data, "logs", "homed_old.log"), "old\n");
    writeFileSync(join(data, "notes", "notes.json"), "{}");
    writeFileSync(join(data, "homed.json"), JSON.stringify({ plugins: { enabled: ["files"], workdir } }));
    for (const path of [data, join(data, "logs"), join(data, "notes")]) chmodSync(path, 0o755);
    for (const path of ["homed.db", "logs/homed_old.log", "notes/notes.json", "homed.json"]) chmodSync(join(data, path), 0o644);
    assert.ok(dbBytes(data).includes(KEY), "the earlier homed's key is in the file's bytes");

    const daemon = await startUnderUmask022(data);
    try {
      assert.match(daemon.stderr(), new RegExp(`WARN  data folder ${data} was open to other users: made \\d+ entries owner-only \\(${data} was 755, homed.db was 644`));
      assert.match(daemon.stderr(), /secrets: sealed 20 API keys stored in plaintext/);
      assert.deepEqual(notPrivate(data), []);
      assert.ok(!dbBytes(data).includes(KEY), "the plaintext is gone from homed.db and its WAL");

      await until(() => /plugins: files running/.test(daemon.stderr()), "the files plugin to start");
      assert.match(await turn(daemon, "write it"), /event: done/);
      assert.equal(provider.requests[0]!.headers.authorization, `Bearer ${KEY}`, "the sealed key still reaches the provider");
      // The user's own folder, outside the data folder, keeps the user's umask.
      assert.equal(statSync(join(workdir, "shared.txt")).mode & 0o777, 0o644);
    } finally {
      assert.equal((await daemon.stop()).code, 0, daemon.stderr());
    }
  });
});
