/**
 * The A2A (Agent2Agent) channel: the agent card at `/.well-known/agent-card.json` and JSON-RPC at
 * `/a2a`, so another agent can talk to homed. A daemon route, not a plugin process: A2A is HTTP
 * served by the agent itself, and the daemon already owns the listener, the keys and the kernel —
 * a plugin would need a second port and a way back into the kernel for every turn.
 *
 * The protocol is the official SDK's (`@a2a-js/sdk`): its request handler keeps the tasks and
 * checks every request, its transport handlers speak v1.0 (`SendMessage`, `SendStreamingMessage`,
 * `GetTask`, `CancelTask`) and v0.3 (`message/send`, `message/stream`, `tasks/get`,
 * `tasks/cancel`), chosen by the `A2A-Version` header as the spec says (none means 0.3); errors are
 * theirs, in JSON-RPC's shape. homed adds the turn (a2a-executor.ts), the card (a2a-card.ts) and
 * auth: the admin token or an app key with the `a2a` scope, whose partner the turns belong to.
 * Tasks live in memory, bounded (a2a-task-store.ts): after a restart `tasks/get` no longer finds
 * them (the turns themselves are stored).
 */
import { A2A_VERSION_HEADER, SSE_HEADERS, type AgentCard } from "@a2a-js/sdk";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { DefaultRequestHandler, JsonRpcTransportHandler, ServerCallContext, validateVersion, type User } from "@a2a-js/sdk/server";
import { Hono, type MiddlewareHandler } from "hono";
import { stream } from "hono/streaming";
import type { Kernel } from "../kernel/index.ts";
import type { Logger } from "../log/index.ts";
import { ErrorCode } from "../plugins/index.ts";
import { a2aCard, A2A_PATH, v03CardJson, v1CardJson, type A2AConfig } from "./a2a-card.ts";
import { HomedAgentExecutor } from "./a2a-executor.ts";
import { BoundedTaskStore } from "./a2a-task-store.ts";
import type { AuthEnv } from "./auth.ts";
import { keyPartner } from "./request-access.ts";

export { A2AConfigSchema, A2A_PATH, type A2AConfig } from "./a2a-card.ts";

export const A2A_CARD_PATH = "/.well-known/agent-card.json";
const LEGACY_VERSION = "0.3";

/** The caller as the SDK's task store sees it: tasks are kept apart by partner. */
const userOf = (partner: string): User => ({ isAuthenticated: true, userName: partner });

const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: "2.0" as const, id: id ?? null, error: { code, message } });

/**
 * homed's auth in front of `/a2a`, its refusals re-said as JSON-RPC errors (same status, same
 * `Retry-After`): an A2A client reads `error.message`, never homed's `{error, message}`.
 */
export function a2aAuth(auth: MiddlewareHandler<AuthEnv>): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const refused = await auth(c, next);
    if (!(refused instanceof Response)) return;
    const { message } = (await refused.json()) as { message: string };
    const headers = new Headers(refused.headers);
    if (refused.status === 401) headers.set("www-authenticate", 'Bearer realm="homed"');
    return new Response(JSON.stringify(rpcError(null, ErrorCode.InvalidRequest, message)), { status: refused.status, headers });
  };
}

export function a2aRoutes(kernel: Kernel, config: A2AConfig, log: Pick<Logger, "warn" | "error">): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  // The handler's own copy of the card only decides versions and capabilities; the card served
  // names the address it was fetched from.
  const handler = new DefaultRequestHandler(a2aCard(config, "http://127.0.0.1"), new BoundedTaskStore(), new HomedAgentExecutor(kernel, log), undefined, undefined, undefined, undefined, undefined, {
    validateInputModes: true,
  });
  const v1 = new JsonRpcTransportHandler(handler);
  const v03 = new LegacyJsonRpcTransportHandler(handler);

  app.get(A2A_CARD_PATH, (c) => {
    const card: AgentCard = a2aCard(config, new URL(c.req.url).origin);
    const asked = c.req.header(A2A_VERSION_HEADER) ?? LEGACY_VERSION;
    c.header("vary", A2A_VERSION_HEADER);
    return c.json(asked === LEGACY_VERSION ? v03CardJson(card) : v1CardJson(card));
  });

  app.post(A2A_PATH, async (c) => {
    let body: Record<string, unknown>;
    try {
      body = await c.req.json();
    } catch {
      return c.json(rpcError(null, ErrorCode.ParseError, "The request body is not valid JSON"), 400);
    }
    const key = c.get("appKey");
    const requestedVersion = c.req.header(A2A_VERSION_HEADER) || undefined;
    const legacy = (requestedVersion ?? LEGACY_VERSION) === LEGACY_VERSION;
    const context = new ServerCallContext({ user: userOf(key ? keyPartner(key) : "default"), requestedVersion });
    try {
      validateVersion(context.requestedVersion, await handler.getAgentCard(), "JSONRPC");
    } catch (error) {
      return c.json({ jsonrpc: "2.0", id: body?.id ?? null, error: JsonRpcTransportHandler.mapToJSONRPCError(error) });
    }
    const answer = await (legacy ? v03 : v1).handle(body, context);
    if (!(Symbol.asyncIterator in answer)) return c.json(answer);
    const events = answer[Symbol.asyncIterator]();
    for (const [name, value] of Object.entries(SSE_HEADERS)) c.header(name, value);
    return stream(c, async (out) => {
      // A client that goes away leaves the task running: tasks/get and tasks/cancel still reach it.
      out.onAbort(() => void events.return?.());
      const mapError = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
      try {
        for (let next = await events.next(); !next.done; next = await events.next()) await out.write(`data: ${JSON.stringify(next.value)}\n\n`);
      } catch (error) {
        log.warn(`a2a: stream of request ${String(body.id)} failed: ${(error as Error).message}`);
        await out.write(`event: error\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: body.id ?? null, error: mapError(error) })}\n\n`);
      }
    });
  });
  return app;
}
