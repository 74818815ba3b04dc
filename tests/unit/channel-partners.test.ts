/**
 * Who a channel plugin's peer is (src/channels/plugin-channels.ts): the spec's mapping, else
 * `<channel>_<peer>`; a QQ group keeps the partner name it had before QQ became a plugin, so an
 * upgrade keeps its sessions and the memories private to it — and no other channel gets that.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { partnerFor, peerFor } from "../../src/channels/plugin-channels.ts";

describe("channel partners", () => {
  test("mapped peers take their name; others are <channel>_<peer>, both ways", () => {
    const partners = { "10001": "alice" };
    assert.equal(partnerFor("telegram", partners, "10001"), "alice");
    assert.equal(partnerFor("telegram", partners, "555"), "telegram_555");
    assert.equal(peerFor("telegram", partners, "alice"), "10001");
    assert.equal(peerFor("telegram", partners, "telegram_555"), "555");
    assert.equal(peerFor("telegram", partners, "telegram_10001"), undefined, "a mapped peer is reached as its name only");
    assert.equal(peerFor("telegram", partners, "qq_555"), undefined, "another channel's partner is none of this one's");
  });

  test("a QQ group is partner group_<id> as before QQ was a plugin; another channel's group is not", () => {
    assert.equal(partnerFor("qq", {}, "group_778"), "group_778");
    assert.equal(peerFor("qq", {}, "group_778"), "group_778");
    assert.equal(partnerFor("qq", {}, "778"), "qq_778");
    assert.equal(partnerFor("telegram", {}, "group_778"), "telegram_group_778");
    assert.equal(peerFor("telegram", {}, "group_778"), undefined);
  });
});
