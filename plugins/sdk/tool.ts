/** A plugin tool: a name, a zod schema for its arguments, and what it does. */
import { z } from "zod";
import type { PluginShared } from "./shared.ts";

/**
 * What a tool gets besides its arguments: cancellation, the shared segment if attached, and the
 * kernel session the call is made for (to name in events pushed for it later; absent from other hosts).
 */
export type ToolContext = { signal: AbortSignal; shared: PluginShared; session?: string | undefined };

/** An image for the model (an MCP image block), with details as JSON beside it. */
export class ImageOutput {
  constructor(
    readonly image: { data: Uint8Array; mimeType: string },
    readonly details: Record<string, unknown>,
  ) {}
}

/** What a tool returns: text as is, an image as an image block, anything else as JSON (also given as structured content). */
export type ToolOutput = string | ImageOutput | Record<string, unknown> | unknown[];

export type ToolDefinition<S extends z.ZodType = z.ZodType> = {
  name: string;
  description: string;
  input: S;
  run: (args: z.infer<S>, context: ToolContext) => Promise<ToolOutput> | ToolOutput;
};

export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/**
 * A failure the tool reports to the model as data (`isError: true`), with a stable code the
 * model can act on, rather than a protocol error.
 */
export class ToolFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}

export function describeTool(tool: ToolDefinition) {
  return { name: tool.name, description: tool.description, inputSchema: z.toJSONSchema(tool.input, { io: "input" }) };
}

export async function runTool(tool: ToolDefinition, rawArgs: unknown, context: ToolContext) {
  const parsed = tool.input.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return failure("invalid_arguments", `Cannot run ${tool.name}: ${issue ? `${issue.path.join(".") || "arguments"}: ${issue.message}` : "invalid arguments"}`);
  }
  try {
    const output = await tool.run(parsed.data, context);
    if (typeof output === "string") return { content: [{ type: "text", text: output }] };
    if (output instanceof ImageOutput) {
      const image = { type: "image", data: Buffer.from(output.image.data).toString("base64"), mimeType: output.image.mimeType };
      return { content: [image, { type: "text", text: JSON.stringify(output.details) }], structuredContent: output.details };
    }
    return { content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output };
  } catch (error) {
    if (error instanceof ToolFailure) return failure(error.code, error.message, error.details);
    return failure("tool_failed", `Cannot run ${tool.name}: ${(error as Error).message}`);
  }
}

function failure(code: string, message: string, details: Record<string, unknown> = {}) {
  const body = { error: code, message, ...details };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}
