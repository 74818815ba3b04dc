/** A plugin tool: a name, a zod schema for its arguments, and what it does. */
import { z } from "zod";
import { BULK_MIN_BYTES, contentPart, INLINE_MAX_BYTES } from "../../src/protocol/index.ts";
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

/**
 * Text as UTF-8 bytes (a file's content): sent without being decoded and encoded again in the
 * plugin — through the shared segment, one copy (100 MB: see bench/plugins). Invalid sequences
 * read as U+FFFD, as with `readFile(path, "utf8")`.
 */
export class TextBytes {
  constructor(readonly utf8: Uint8Array) {}
}

/** What a tool returns: text as is, an image as an image block, anything else as JSON (also given as structured content). */
export type ToolOutput = string | TextBytes | ImageOutput | Record<string, unknown> | unknown[];

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

/**
 * Runs a call. Text and images of at least `bulkMinBytes` go through the shared segment when the
 * plugin has one (src/protocol/bulk-part.ts), stdio carrying only their reference.
 */
export async function runTool(
  tool: ToolDefinition,
  rawArgs: unknown,
  context: ToolContext,
  { bulkMinBytes = BULK_MIN_BYTES, log = () => {} }: { bulkMinBytes?: number; log?: (line: string) => void } = {},
) {
  const parsed = tool.input.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return failure("invalid_arguments", `Cannot run ${tool.name}: ${issue ? `${issue.path.join(".") || "arguments"}: ${issue.message}` : "invalid arguments"}`);
  }
  const tooLarge = () =>
    failure("too_large", `Cannot return ${tool.name}'s result: over ${INLINE_MAX_BYTES} bytes and the shared segment has no room for it (is another large result still being read?)`);
  try {
    const output = await tool.run(parsed.data, context);
    // The kernel gave up on this call (its deadline passed): nothing is placed in the segment,
    // since no one would read it back and release the room.
    if (context.signal.aborted) return failure("cancelled", `${tool.name} finished after the kernel stopped waiting for it`);
    const place = (part: Parameters<typeof contentPart>[2]) => contentPart(context.shared, bulkMinBytes, part, log);
    if (typeof output === "string") {
      const part = place({ type: "text", text: output });
      return part ? { content: [part] } : tooLarge();
    }
    if (output instanceof TextBytes) {
      const part = place({ type: "text", utf8: output.utf8 });
      return part ? { content: [part] } : tooLarge();
    }
    if (output instanceof ImageOutput) {
      const image = place({ type: "image", data: output.image.data, mimeType: output.image.mimeType });
      return image ? { content: [image, { type: "text", text: JSON.stringify(output.details) }], structuredContent: output.details } : tooLarge();
    }
    const json = JSON.stringify(output);
    const part = place({ type: "text", text: json });
    if (!part) return tooLarge();
    // Structured content would carry an offloaded result over stdio after all: it goes only with inline text.
    return part._meta ? { content: [part] } : { content: [part], structuredContent: output };
  } catch (error) {
    if (error instanceof ToolFailure) return failure(error.code, error.message, error.details);
    return failure("tool_failed", `Cannot run ${tool.name}: ${(error as Error).message}`);
  }
}

function failure(code: string, message: string, details: Record<string, unknown> = {}) {
  const body = { error: code, message, ...details };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
}
