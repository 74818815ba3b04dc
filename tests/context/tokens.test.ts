import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { countTokens, loadTokenizer, sparseCosine, TfidfCorpus } from "../../src/text/index.ts";
import { evalCommand, ROOT, run } from "../support/process.ts";
import { eventTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD, messageTokens, TOOL_CALL_OVERHEAD, type ChatMessage } from "../../src/context/index.ts";

before(() => loadTokenizer());

describe("token counts", () => {
  test("counting before the tokenizer is loaded is a loud error, not a wrong number", async () => {
    // A fresh process: this one has loaded the tokenizer already.
    const script = `import { countTokens } from "${ROOT}src/text/index.ts"; countTokens("hello");`;
    const result = await run(evalCommand(script));
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /Cannot count tokens: the tokenizer is not loaded yet/);
  });

  test("o200k_base counts, English and Chinese", () => {
    assert.equal(countTokens(""), 0);
    assert.equal(countTokens("hello world"), 2);
    assert.equal(countTokens("你好，世界"), 3);
    assert.equal(countTokens("帮我看看昨天的构建为什么失败了？"), 11);
  });

  test("Chinese is counted near one token per character, English near four characters per token", () => {
    // A characters/4 rule would give 0.25 tokens per Chinese character: off by about 2.5×.
    // Everyday Chinese prose (written for this test; the repository must not depend on ../shared).
    const zh =
      "周末我和朋友去西湖边散步，天气很好，湖面上有很多游船。中午我们在一家小饭馆吃了西湖醋鱼和龙井虾仁，" +
      "味道不错但是有点贵。下午下起了小雨，我们躲进一家茶馆，喝了一壶新茶，聊起了明年想去日本旅行的计划。" +
      "晚上回家的地铁上人很多，我一直站着，到家的时候已经很累了，洗完澡就睡觉了。";
    const perChar = countTokens(zh) / zh.length;
    assert.ok(perChar > 0.5 && perChar < 1.2, `Chinese: ${perChar.toFixed(2)} tokens per character`);
    const en = "The kubernetes pod went into a crash loop after the deploy, so we rolled back the release.";
    const perToken = en.length / countTokens(en);
    assert.ok(perToken > 3 && perToken < 6, `English: ${perToken.toFixed(2)} characters per token`);
  });

  test("special-token text in user content is plain text, not an error", () => {
    assert.ok(countTokens("<|endoftext|> and <|im_start|>") > 2);
  });

  test("a message is its text plus framing; an event is exactly the sum of its messages", () => {
    const messages: ChatMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "hello world" },
          { type: "image_url", image_url: { url: "data:," } },
        ],
      },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "hello world" },
    ];
    assert.equal(messageTokens(messages[0]!), MESSAGE_OVERHEAD + 2 + IMAGE_TOKENS);
    assert.equal(messageTokens(messages[1]!), MESSAGE_OVERHEAD + TOOL_CALL_OVERHEAD + countTokens("c1") + countTokens("read") + countTokens("{}"));
    assert.equal(messageTokens(messages[2]!), MESSAGE_OVERHEAD + 2 + countTokens("c1"));
    assert.equal(
      eventTokens(messages),
      messages.reduce((s, m) => s + messageTokens(m), 0),
    );
  });
});

describe("TF-IDF", () => {
  const corpus = TfidfCorpus.fromDocuments([
    ["部署", "kubernetes"],
    ["部署", "午饭"],
    ["部署", "电影"],
  ]);

  test("a word every document has weighs less than a rare one", () => {
    assert.ok(corpus.idf("部署") < corpus.idf("kubernetes"));
    assert.ok(corpus.idf("kubernetes") < corpus.idf("never-seen"));
    assert.ok(corpus.idf("部署") > 0, "never zero: a shared word still counts a little");
  });

  test("vectors are unit length and cosine ranks the matching document first", () => {
    const query = corpus.vector(["kubernetes", "部署"]);
    const norm = Math.sqrt(Object.values(query).reduce((s, w) => s + w * w, 0));
    assert.ok(Math.abs(norm - 1) < 1e-9);
    const a = sparseCosine(query, corpus.vector(["部署", "kubernetes"]));
    const b = sparseCosine(query, corpus.vector(["部署", "午饭"]));
    assert.ok(Math.abs(a - 1) < 1e-9 && b < a && b > 0);
    assert.equal(sparseCosine(query, corpus.vector(["电影"])), 0);
    assert.equal(sparseCosine(query, {}), 0);
  });
});
