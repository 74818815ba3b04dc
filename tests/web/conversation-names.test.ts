/** The conversation list's names and groups: a title from the first message, and the day a conversation falls in. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { titleFrom } from "../../web/auto-title.ts";
import { dayOf } from "../../web/day-groups.ts";

describe("titleFrom", () => {
  test("the first line with words, spaces collapsed; a short one whole", () => {
    assert.equal(titleFrom("\n   What  colour\tis my boat?\nsecond line"), "What colour is my boat?");
    assert.equal(titleFrom("   \n "), "");
  });
  test("a long line is cut between words, with an ellipsis", () => {
    const title = titleFrom("Please help me plan a sailing trip along the coast of Brittany next summer with two children");
    assert.equal(title, "Please help me plan a sailing trip along the…");
  });
  test("Chinese keeps half as many characters (each is two columns wide)", () => {
    assert.equal(titleFrom("我想知道我的船是什么颜色的，还有我上次去港口是什么时候，以及天气怎么样"), "我想知道我的船是什么颜色的，还有我上次去港口是什…");
  });
});

describe("dayOf", () => {
  const now = new Date(2026, 2, 29, 10, 0); // the morning after a spring DST change in Europe
  test("today from local midnight, yesterday the calendar day before, earlier before that", () => {
    assert.equal(dayOf(new Date(2026, 2, 29, 0, 0).getTime(), now), "today");
    assert.equal(dayOf(new Date(2026, 2, 28, 23, 59).getTime(), now), "yesterday");
    assert.equal(dayOf(new Date(2026, 2, 28, 0, 0).getTime(), now), "yesterday");
    assert.equal(dayOf(new Date(2026, 2, 27, 23, 59).getTime(), now), "earlier");
  });
});
