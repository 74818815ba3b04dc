/**
 * No two files import each other, directly or round a loop (static, type-only or dynamic
 * imports alike): a loop means neither file can be read, tested or moved without the other. The
 * loops that exist are pinned below, each with why; a new one fails, and so does a pinned one
 * that is gone (delete it here). Issue 28 found three plugins whose index.ts and tools.ts
 * imported each other over a Config type; their settings now live in config.ts.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { codeAndImports, isCodeIn } from "../../scripts/layers.ts";

/** Known loops, as their files sorted and joined by " ↔ ". */
const PINNED: Record<string, string> = {
  // The runtime seam: the neutral module picks Bun's or Deno's implementation, which take its types.
  "src/runtime/libc-bun.ts ↔ src/runtime/libc-deno.ts ↔ src/runtime/libc.ts": "runtime seam",
  "src/runtime/serve-bun.ts ↔ src/runtime/serve-deno.ts ↔ src/runtime/serve.ts": "runtime seam",
  // A connection starts a local child or a remote transport; both report through the connection's types.
  "src/plugins/child.ts ↔ src/plugins/connection.ts ↔ src/plugins/remote.ts": "to untangle: the shared types into a file of their own",
  "plugins/sdk/channel.ts ↔ plugins/sdk/serve.ts": "to untangle: serve.ts dispatches to the channel role, which serves through it",
  // `homed help` lists the commands, and the list holds help.
  "src/cli/commands/help.ts ↔ src/cli/commands/index.ts": "help lists every command, and is one",
};

/** Strongly connected components of more than one file (Tarjan's algorithm). */
function loops(edges: Map<string, Set<string>>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) found.push(component.sort().join(" ↔ "));
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found.sort();
}

describe("architecture: files", () => {
  test("no import loops between files but the pinned ones", () => {
    const edges = new Map<string, Set<string>>();
    for (const i of codeAndImports().imports) {
      if (!isCodeIn(i.to) || i.from === i.to) continue;
      if (!edges.has(i.from)) edges.set(i.from, new Set());
      edges.get(i.from)!.add(i.to);
    }
    const found = loops(edges);
    assert.deepEqual(
      found.filter((l) => !(l in PINNED)),
      [],
      "a new import loop: put what both sides need in a file of its own",
    );
    assert.deepEqual(
      Object.keys(PINNED).filter((l) => !found.includes(l)),
      [],
      "this loop is gone: delete it from PINNED",
    );
  });
});
