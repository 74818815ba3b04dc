/**
 * ChatGPT's and Claude's conversations.json read as history: the visible thread only (ChatGPT's
 * branches left behind by edits and regenerations are not imported), what people said in text
 * only (system, tool and hidden nodes, tool calls, empty parts left out), the format told from
 * the content, and an error naming the formats homed reads when none matches. The fixtures
 * (tests/fixtures/chat-exports/) follow both services' export files field for field.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { coldcontextQuery, importHistory, parseUpload } from "../../src/memory/index.ts";
import { HomedError } from "../../src/errors/index.ts";
import { ROOT, run, SOURCE_HOMED } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";
import { openTempStore } from "./fixture.ts";

const fixture = (name: string) => readFileSync(join(ROOT, "tests/fixtures/chat-exports", name), "utf8");
const CHATGPT = fixture("chatgpt-conversations.json");
const CLAUDE = fixture("claude-conversations.json");

describe("ChatGPT export", () => {
  test("imports the thread on screen, from current_node up: the answer and the edited question shown, not the branches beside them", () => {
    const { format, messages, invalid } = parseUpload(CHATGPT);
    assert.equal(format, "chatgpt");
    assert.deepEqual(invalid, []);
    const lisbon = messages.filter((m) => m.conversation === "chatgpt:6632a0f1-7b3c-8005-a1de-2f0c9e4b7d10");
    assert.deepEqual(
      lisbon.map((m) => [m.sourceId, m.role, m.speaker]),
      [
        ["user-1", "user", "user"],
        ["assistant-1b", "assistant", "ChatGPT"],
        ["user-2b", "user", "user"],
        ["assistant-2", "assistant", "ChatGPT"],
      ],
    );
    assert.ok(!messages.some((m) => /regenerated answer|before an edit/.test(m.text)), "no abandoned branch");
  });

  test("leaves out system, tool and hidden nodes, the model's tool calls and empty parts; keeps the text of a message with an image", () => {
    const { messages } = parseUpload(CHATGPT);
    assert.ok(!messages.some((m) => ["sys-1", "tool-2", "assistant-2-call", "assistant-2-empty"].includes(m.sourceId)));
    assert.ok(messages.every((m) => m.role === "user" || m.role === "assistant"));
    assert.ok(messages.every((m) => m.text.trim() !== ""));
    const photo = messages.find((m) => m.sourceId === "user-2b")!;
    assert.equal(photo.text, "Is this pastel de nata place any good? My sister Ines recommended it.");
  });

  test("times are the messages' own (seconds since the epoch), each conversation its own session", () => {
    const { messages } = parseUpload(CHATGPT);
    assert.equal(messages.find((m) => m.sourceId === "assistant-1b")!.time, 1714557612250);
    assert.deepEqual([...new Set(messages.map((m) => m.session))], ["6632a0f1-7b3c-8005-a1de-2f0c9e4b7d10", "6650b2c4-1d2e-8005-b3f1-9a7e6c5d4b32"]);
    assert.equal(messages.length, 6);
  });

  test("without current_node (older exports) the latest branch is followed from the root", () => {
    const conversations = JSON.parse(CHATGPT);
    delete conversations[0].current_node;
    const { messages } = parseUpload(JSON.stringify(conversations));
    assert.deepEqual(
      messages.filter((m) => m.conversation.startsWith("chatgpt:6632")).map((m) => m.sourceId),
      ["user-1", "assistant-1a"],
    );
  });

  test("a conversation without the export's shape is named with its title and refuses the upload", () => {
    const conversations = JSON.parse(CHATGPT);
    conversations[1].mapping["u-21"].message.author = "user";
    const { messages, invalid } = parseUpload(JSON.stringify(conversations));
    assert.deepEqual(
      invalid.map((i) => i.where),
      ["conversation 2 (Bike tyre pressure)"],
    );
    assert.match(invalid[0]!.reason, /not a ChatGPT conversation: "mapping\.u-21\.message\.author"/);
    assert.equal(messages.length, 4, "the valid conversation is still read, for skipInvalid");
  });
});

describe("Claude export", () => {
  test("imports the human's and Claude's messages from their text blocks, leaving out tool use and empty messages", () => {
    const { format, messages, invalid } = parseUpload(CLAUDE);
    assert.equal(format, "claude");
    assert.deepEqual(invalid, []);
    assert.deepEqual(
      messages.map((m) => [m.conversation, m.role, m.speaker]),
      [
        ["claude:b1f4c2a0-3e5d-4c7b-9a81-2d6e0f1a3b4c", "user", "user"],
        ["claude:b1f4c2a0-3e5d-4c7b-9a81-2d6e0f1a3b4c", "assistant", "Claude"],
        ["claude:c7d8e9f0-1a2b-4c3d-8e4f-5a6b7c8d9e0f", "user", "user"],
        ["claude:c7d8e9f0-1a2b-4c3d-8e4f-5a6b7c8d9e0f", "assistant", "Claude"],
      ],
    );
    assert.equal(messages[1]!.text, "Not dying: hungry.\n\nThe acetone smell means it ran out of flour; feed it twice a day for a few days.");
    assert.equal(messages[2]!.text, "Remind me: my passport expires in March 2027.", "text when there are no content blocks");
    assert.equal(messages[0]!.time, Date.parse("2024-06-01T09:12:44.859Z"));
    assert.equal(messages[0]!.sourceId, "e2a1b3c4-0001-4d5e-8f90-a1b2c3d4e5f6");
  });
});

describe("format detection", () => {
  test("JSON Lines stays JSON Lines, its bad lines named by number", () => {
    const line = JSON.stringify({ conversation: "c", session: "s", time: "2024-05-08T13:56:00Z", speaker: "Ann", role: "user", text: "hi", id: "1" });
    const parsed = parseUpload(`${line}\n{"nope":1}`);
    assert.equal(parsed.format, "jsonl");
    assert.equal(parsed.messages.length, 1);
    assert.equal(parsed.invalid[0]!.where, "line 2");
  });

  test("a JSON array that is neither export is refused with the three formats named", () => {
    for (const content of ['[{"title":"x","messages":[]}]', "[]", "[1, 2]", "[not json"]) {
      assert.throws(
        () => parseUpload(content),
        (error: unknown) => error instanceof HomedError && error.code === "invalid_history" && /JSON Lines.*ChatGPT.*"mapping".*Claude.*"chat_messages"/.test(error.message),
        content,
      );
    }
  });

  test("an imported ChatGPT export is recalled", async () => {
    await using store = await openTempStore();
    const { messages } = parseUpload(CHATGPT);
    assert.deepEqual(await importHistory(store.client, messages), { added: 6, present: 0 });
    const found = await coldcontextQuery(store.client, "pastel de nata sister", { k: 1, channels: ["words"] });
    assert.deepEqual(
      found.flatMap((r) => r.sources),
      ["user-2b"],
    );
    assert.deepEqual(await importHistory(store.client, parseUpload(CHATGPT).messages), { added: 0, present: 6 }, "re-importing adds nothing");
  });
});

describe("homed import of an export (child processes)", () => {
  test("a ChatGPT conversations.json imports its visible thread and is recalled; a bad Claude conversation aborts naming it", async () => {
    using tmp = tempDir("homed-cli-");
    const data = join(tmp.path, "data");
    const chatgpt = join(tmp.path, "conversations.json");
    writeFileSync(chatgpt, `\uFEFF\n${CHATGPT}`);
    const imported = await run([...SOURCE_HOMED, "import", "-data", data, chatgpt]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /6 added, 0 already present, 0 invalid skipped/);
    const recalled = await run([...SOURCE_HOMED, "recall", "-data", data, "--explain", "pastel de nata"]);
    assert.equal(recalled.code, 0, recalled.stderr);
    assert.match(recalled.stdout.split("\n")[0]!, /Is this pastel de nata place any good\?/);
    assert.doesNotMatch(recalled.stdout, /Model set context updated/);

    const claude = JSON.parse(CLAUDE);
    claude[1].chat_messages = "none";
    const bad = join(tmp.path, "claude.json");
    writeFileSync(bad, JSON.stringify(claude));
    const refused = await run([...SOURCE_HOMED, "import", "-data", data, bad]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /conversation 2: not a Claude conversation: "chat_messages"/);
    const skipped = await run([...SOURCE_HOMED, "import", "-data", data, "--skip-invalid", bad]);
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.match(skipped.stdout, /2 added, 0 already present, 1 invalid skipped/);
  });
});
