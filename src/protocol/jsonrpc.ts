/**
 * JSON-RPC 2.0 wire shapes (the plugin control channel) and the one wire-error class.
 * Frames are parsed once here; everything past this file trusts the shape.
 */
import { z } from "zod";

export const RequestIdSchema = z.union([z.string(), z.number().int()]);
export type RequestId = z.infer<typeof RequestIdSchema>;

const ParamsSchema = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional();

export const RequestSchema = z.object({
  jsonrpc: z.literal("2.0"),
  id: RequestIdSchema,
  method: z.string().min(1),
  params: ParamsSchema,
});
export const NotificationSchema = z.object({
  jsonrpc: z.literal("2.0"),
  method: z.string().min(1),
  params: ParamsSchema,
});
export const ErrorObjectSchema = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });
export const ResponseSchema = z.union([
  z.object({ jsonrpc: z.literal("2.0"), id: RequestIdSchema, result: z.unknown() }).refine((m) => "result" in m),
  z.object({ jsonrpc: z.literal("2.0"), id: RequestIdSchema.nullable(), error: ErrorObjectSchema }),
]);

export type Request = z.infer<typeof RequestSchema>;
export type Notification = z.infer<typeof NotificationSchema>;
export type Response = z.infer<typeof ResponseSchema>;
export type Message = Request | Notification | Response;

/** Numeric codes of JSON-RPC 2.0 plus the ones homed uses on the wire. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** The caller's deadline passed before an answer came. */
  RequestTimeout: -32001,
  /** The connection closed with the request still open. */
  ConnectionClosed: -32000,
} as const;

/** A failure that travels on the wire: what the peer answered, or why no answer came. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "RpcError";
  }
  toWire() {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

export type Classified =
  | { kind: "request"; message: Request }
  | { kind: "notification"; message: Notification }
  | { kind: "response"; message: Response }
  | { kind: "invalid"; id: RequestId | null; reason: string };

/** Sorts one parsed JSON value into request / notification / response, or says why it is none. */
export function classify(value: unknown): Classified {
  const record = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const id = record && RequestIdSchema.safeParse(record.id).success ? (record.id as RequestId) : null;
  if (!record) return { kind: "invalid", id: null, reason: "frame is not a JSON object" };
  if ("method" in record) {
    if ("id" in record) {
      const parsed = RequestSchema.safeParse(record);
      return parsed.success ? { kind: "request", message: parsed.data } : { kind: "invalid", id, reason: describe(parsed.error) };
    }
    const parsed = NotificationSchema.safeParse(record);
    return parsed.success ? { kind: "notification", message: parsed.data } : { kind: "invalid", id: null, reason: describe(parsed.error) };
  }
  const parsed = ResponseSchema.safeParse(record);
  // An answer we cannot read is never answered back: that could loop between two peers.
  return parsed.success ? { kind: "response", message: parsed.data } : { kind: "invalid", id: null, reason: describe(parsed.error) };
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "frame"}: ${issue.message}` : "not JSON-RPC 2.0";
}
