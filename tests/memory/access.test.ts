/** The one rule of who sees what (src/memory/access.ts), on its own: the owner, a partner, a partner narrowed by a label. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { maySeeMemory, maySeeSession, narrowedPartner, OWNER, partnerAccess, privateScopesOf, sessionPartnersOf } from "../../src/memory/index.ts";

describe("access: who sees what", () => {
  test("the owner sees every memory and session; no private-scope filter at all", () => {
    assert.equal(privateScopesOf(OWNER), undefined);
    assert.equal(sessionPartnersOf(OWNER), undefined);
    for (const privateTo of [null, "partner:alice", "project:x"]) assert.equal(maySeeMemory(OWNER, privateTo), true);
    assert.equal(maySeeSession(OWNER, { partner: "anyone" }), true);
  });

  test("a partner sees the user's memory and its own, never another partner's, nor one inside it, nor one that merely shares a prefix", () => {
    const app2 = partnerAccess("app2");
    assert.equal(maySeeMemory(app2, null), true);
    assert.equal(maySeeMemory(app2, "partner:app2"), true);
    for (const other of ["partner:alice", "partner:app2/alice", "partner:app", "partner:app20", "partner:app2 "]) assert.equal(maySeeMemory(app2, other), false, other);
    assert.equal(maySeeSession(app2, { partner: "app2" }), true);
    for (const other of ["alice", "app2/alice", "app20", "app"]) assert.equal(maySeeSession(app2, { partner: other }), false, other);
  });

  test("a label narrows: app2 + 'alice' is app2/alice, which sees app2's private memory and sessions, and never alice's", () => {
    assert.equal(narrowedPartner("app2", "alice"), "app2/alice");
    assert.equal(narrowedPartner("app2", "  "), "app2");
    assert.equal(narrowedPartner("app2", undefined), "app2");
    const inner = partnerAccess(narrowedPartner("app2", "alice"));
    assert.deepEqual(privateScopesOf(inner), ["partner:app2", "partner:app2/alice"]);
    assert.equal(maySeeMemory(inner, "partner:alice"), false);
    assert.equal(maySeeSession(inner, { partner: "alice" }), false);
    assert.equal(maySeeSession(inner, { partner: "app2" }), true);
    // A label that tries to climb out stays inside: "../alice" is a partner inside app2 like any other.
    const climbing = partnerAccess(narrowedPartner("app2", "../alice"));
    assert.equal(maySeeMemory(climbing, "partner:alice"), false);
    assert.equal(maySeeSession(climbing, { partner: "alice" }), false);
  });
});
