/** Secrets at rest: the box, its key file, sealing stored plaintext, and a key that does not match (real libSQL files). */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ProviderStore } from "../../src/kernel/providers.ts";
import { openSecretBox, openStore, sealStoredSecrets, SecretBox, SecretKeyFileError, SecretUnreadable, SECRETS_KEY_FILE } from "../../src/store/index.ts";
import { testDir } from "../support/temp-dir.ts";

const scratch = () => testDir("homed-secrets-");

describe("secret box", () => {
  test("a sealed value opens with its key and row name only, and never shows the plaintext", () => {
    const box = SecretBox.ephemeral();
    const sealed = box.seal("provider:a:apiKey", "sk-abc");
    assert.ok(SecretBox.isSealed(sealed));
    assert.ok(!sealed.includes("sk-abc"));
    assert.notEqual(box.seal("provider:a:apiKey", "sk-abc"), sealed, "a fresh IV each time");
    assert.equal(box.open("provider:a:apiKey", sealed), "sk-abc");
    assert.throws(() => box.open("provider:b:apiKey", sealed), SecretUnreadable, "moved to another row");
    assert.throws(() => SecretBox.ephemeral().open("provider:a:apiKey", sealed), SecretUnreadable, "another key");
  });

  test("the key file is made once, 0600, and read back; a damaged one is an error and is left as it is", () => {
    const dir = scratch();
    const first = openSecretBox(dir);
    assert.equal(first.created, true);
    assert.equal(statSync(first.path).mode & 0o777, 0o600);
    const again = openSecretBox(dir);
    assert.equal(again.created, false);
    assert.equal(again.box.open("n", first.box.seal("n", "v")), "v");

    const damaged = scratch();
    writeFileSync(join(damaged, SECRETS_KEY_FILE), "not a key\n");
    assert.throws(() => openSecretBox(damaged), SecretKeyFileError);
    assert.equal(readFileSync(join(damaged, SECRETS_KEY_FILE), "utf8"), "not a key\n");
  });

  test("stored plaintext is sealed once; keys sealed under another key are reported, and a turn's provider lookup says why it fails", async () => {
    const store = await openStore({ url: `file:${join(scratch(), "homed.db")}` });
    try {
      const box = SecretBox.ephemeral();
      await store.client.execute("INSERT INTO secrets (name, value, updated_at) VALUES ('provider:plain:apiKey', 'sk-plain', 0)");
      await store.client.execute({
        sql: "INSERT INTO secrets (name, value, updated_at) VALUES ('provider:other:apiKey', ?, 0)",
        args: [SecretBox.ephemeral().seal("provider:other:apiKey", "sk-other")],
      });
      assert.deepEqual(await sealStoredSecrets(store.client, box, true), { sealed: 1, unreadable: ["provider:other:apiKey"] });
      assert.deepEqual(await sealStoredSecrets(store.client, box, true), { sealed: 0, unreadable: ["provider:other:apiKey"] }, "a second start seals nothing");
      const stored = String((await store.client.execute("SELECT value FROM secrets WHERE name = 'provider:plain:apiKey'")).rows[0]!.value);
      assert.equal(box.open("provider:plain:apiKey", stored), "sk-plain");

      const providers = new ProviderStore(store.client, box);
      const saved = await providers.save({ name: "p", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKey: "sk-new" });
      assert.equal((await providers.target(saved.id))?.apiKey, "sk-new");
      await store.client.execute({ sql: "UPDATE secrets SET value = ? WHERE name = ?", args: [SecretBox.ephemeral().seal(`provider:${saved.id}:apiKey`, "x"), `provider:${saved.id}:apiKey`] });
      assert.equal((await providers.list()).find((p) => p.id === saved.id)?.hasKey, true, "listing never opens keys");
      await assert.rejects(providers.target(saved.id), /Cannot read the stored secret provider:.*:apiKey: it was sealed with another secrets.key \(set it again\)/);
    } finally {
      store.close();
    }
  });
});
