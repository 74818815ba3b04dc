/** A2A tasks are held in two bounded generations: an old task is found for a while, then dropped; never more than twice the bound. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { BoundedTaskStore } from "../../src/server/a2a-task-store.ts";

const task = (id: string) => ({ id, contextId: "c", status: undefined, artifacts: [], history: [], metadata: undefined });
const alice = new ServerCallContext({ user: { isAuthenticated: true, userName: "alice" } });
const bob = new ServerCallContext({ user: { isAuthenticated: true, userName: "bob" } });

test("a task stays findable for at least a generation of newer tasks, then is dropped; saving it again keeps it", async () => {
  const store = new BoundedTaskStore(2);
  for (const id of ["t1", "t2", "t3"]) await store.save(task(id), alice);
  assert.equal((await store.load("t1", alice))?.id, "t1", "t1 is in the previous generation");
  await store.save(task("t4"), alice);
  await store.save(task("t2"), alice); // an update of t2 brings it into the current generation
  await store.save(task("t5"), alice);
  assert.equal(await store.load("t1", alice), undefined, "t1 was dropped with its generation");
  assert.equal((await store.load("t2", alice))?.id, "t2");
  assert.equal((await store.load("t5", alice))?.id, "t5");
  // Tasks stay kept apart by partner.
  assert.equal(await store.load("t5", bob), undefined);
});
