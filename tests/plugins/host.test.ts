/** The host: ordered parallel start, tools across plugins, restart and status over HTTP, stopAll. */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXTURES, gone } from "./support.ts";
import { Hono } from "hono";
import { createPluginHost, PluginError, PluginSpecSchema, StartupOrderError, startupDependencies, startupWaves, type PluginHost } from "../../src/plugins/index.ts";
import { serve } from "../../src/runtime/index.ts";
import { pluginsRoutes } from "../../src/server/plugins-routes.ts";
import { apiErrorHandler } from "../../src/server/errors.ts";
import { scriptSpec } from "../support/process.ts";

const spec = (name: string, mode: string, facilities: { provides?: string[]; requires?: string[] } = {}) =>
  PluginSpecSchema.parse({ name, ...scriptSpec(join(FIXTURES, "misbehave.ts"), mode), ...facilities });

describe("startup order", () => {
  const d = (name: string, provides: string[], requires: string[]) => ({ name, provides, requires });

  test("each plugin waits only for the providers of what it requires", () => {
    const deps = startupDependencies([d("agent", [], ["fs", "net"]), d("files", ["fs"], []), d("web", ["net"], ["fs"]), d("notes", [], [])]);
    assert.deepEqual(Object.fromEntries(deps), { agent: ["files", "web"], files: [], web: ["files"], notes: [] });
    assert.deepEqual(startupWaves(deps), [["files", "notes"], ["web"], ["agent"]]);
  });

  test("a missing provider is an error naming the facility", () => {
    assert.throws(
      () => startupDependencies([d("a", [], ["gpu"])]),
      (e: Error) => e instanceof StartupOrderError && /requires "gpu"/.test(e.message),
    );
  });

  test("a cycle is an error naming the loop", () => {
    assert.throws(
      () => startupDependencies([d("a", ["x"], ["y"]), d("b", ["y"], ["z"]), d("c", ["z"], ["x"])]),
      (e: Error) => e instanceof StartupOrderError && /cycle \(a → b → c → a\)/.test(e.message),
    );
  });

  test("two providers of one facility are an error", () => {
    assert.throws(() => startupDependencies([d("a", ["x"], []), d("b", ["x"], [])]), /provided by both a and b/);
  });
});

describe("plugin host", () => {
  const hosts: PluginHost[] = [];
  after(async () => {
    await Promise.all(hosts.map((h) => h.stopAll()));
  });
  const host = (...specs: ReturnType<typeof spec>[]) => {
    const h = createPluginHost(specs, { graceMs: 300 });
    hosts.push(h);
    return h;
  };

  test("starts all plugins, lists their tools, routes calls, survives a crashing neighbour", async () => {
    const h = host(spec("one", "ok"), spec("two", "ok"), spec("bad", "hang"));
    await h.start();
    assert.deepEqual(
      h.list().map((p) => [p.name, p.state]),
      [
        ["one", "running"],
        ["two", "running"],
        ["bad", "running"],
      ],
    );
    assert.deepEqual(
      h.listTools().map((t) => `${t.plugin}/${t.tool.name}`),
      ["one/ping", "two/ping", "bad/ping"],
    );
    const pidOne = h.status("one").pid!;
    assert.match(JSON.stringify((await h.callTool("one", "ping", {})).content), new RegExp(`pong ${pidOne}`));
    await assert.rejects(h.callTool("bad", "ping", {}, { timeoutMs: 100 }), /no answer within 100 ms/);
    process.kill(h.status("two").pid!, "SIGKILL");
    await assert.rejects(h.callTool("nope", "ping", {}), (e: Error) => e instanceof PluginError && e.code === "unknown_plugin");
    assert.match(JSON.stringify((await h.callTool("one", "ping", {})).content), /pong/);
  });

  test("a plugin starts once the provider of what it requires runs", async () => {
    const h = host(spec("consumer", "ok", { requires: ["db"] }), spec("provider", "ok", { provides: ["db"] }));
    await h.start();
    assert.deepEqual(
      h.list().map((p) => [p.name, p.state]),
      [
        ["consumer", "running"],
        ["provider", "running"],
      ],
    );
  });

  test("a plugin whose requirement cannot run is not started; stopAll leaves no process", async () => {
    const h = host(spec("base", "crash", { provides: ["base"] }), spec("user", "ok", { requires: ["base"] }), spec("free", "ok"));
    const starting = h.start();
    // "free" needs nothing and runs while "base" is still crashing.
    await h.waitFor("free", "running");
    assert.equal(h.status("user").state, "idle");
    await h.restart("base").catch(() => {});
    const pids = h
      .list()
      .map((p) => p.pid)
      .filter((p): p is number => p !== null);
    await h.stopAll();
    for (const pid of pids) assert.ok(await gone(pid), `pid ${pid} survived stopAll`);
    assert.ok(h.list().every((p) => p.state === "stopped"));
    void starting;
  });

  test("GET /api/plugins shows state and log tail; POST restart revives a plugin; unknown names are 404", async () => {
    const h = host(spec("solo", "ok"));
    await h.start();
    // Routes throw; the app's error handler answers (an unknown plugin is a 404 from its code).
    const app = new Hono().route("/", pluginsRoutes(h)).onError(apiErrorHandler({ error: () => {} }));
    const list = (await (await app.request("/api/plugins")).json()) as { plugins: { name: string; state: string; restarts: number; logTail: string[] }[] };
    assert.equal(list.plugins[0]?.name, "solo");
    assert.equal(list.plugins[0]?.state, "running");
    assert.match(list.plugins[0]!.logTail.join("\n"), /running \(pid/);
    const oldPid = h.status("solo").pid;
    const restarted = await app.request("/api/plugins/solo/restart", { method: "POST" });
    assert.equal(restarted.status, 200);
    const body = (await restarted.json()) as { plugin: { state: string; restarts: number; pid: number } };
    assert.equal(body.plugin.state, "running");
    assert.equal(body.plugin.restarts, 1);
    assert.notEqual(body.plugin.pid, oldPid);
    const missing = await app.request("/api/plugins/ghost/restart", { method: "POST" });
    assert.equal(missing.status, 404);
    assert.deepEqual(Object.keys((await missing.json()) as object).sort(), ["error", "message"]);
  });

  test("the kernel keeps serving HTTP while plugins crash, hang, flood stderr and write garbage", async () => {
    const h = host(spec("crasher", "crash"), spec("hanger", "hang"), spec("flooder", "flood"), spec("garbler", "garbage"));
    const app = new Hono().get("/healthz", (c) => c.json({ ok: true })).route("/", pluginsRoutes(h));
    const server = serve("127.0.0.1", 0, (request) => app.fetch(request));
    try {
      const starting = h.start();
      const hung = h.callTool("hanger", "ping", {}, { timeoutMs: 300 }).catch((e: Error) => e);
      for (let i = 0; i < 20; i++) {
        const health = await fetch(`http://127.0.0.1:${server.port}/healthz`);
        assert.equal(health.status, 200);
        const list = (await (await fetch(`http://127.0.0.1:${server.port}/api/plugins`)).json()) as { plugins: { name: string }[] };
        assert.equal(list.plugins.length, 4);
      }
      // Wait until the plugins that can run do, while the crasher keeps failing.
      await Promise.all(["hanger", "flooder", "garbler"].map((n) => h.waitFor(n, "running")));
      void starting;
      assert.ok((await hung) instanceof Error);
      const garbled = await h.callTool("garbler", "ping", {});
      assert.match(JSON.stringify(garbled.content), /pong/);
      assert.ok(h.status("crasher").crashesInWindow >= 1);
    } finally {
      await server.stop(100);
    }
  });
});
