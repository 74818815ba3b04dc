/**
 * Tools the model may call. Built-in tools and plugin tools register here; a tool's failure is
 * returned to the model as data (`{"error", "message"}`), never thrown through the loop.
 */
import type { Content } from "../context/index.ts";
import type { ToolSpec } from "../llm/index.ts";
import { countTokens } from "../text/index.ts";
import { HomedError } from "../errors/index.ts";

/** Who is calling: tools that work within a scope (memory) read it from here. */
export type ToolCallContext = {
  sessionId: string;
  partner: string;
  /**
   * Moves cold events of this session (with their turns) back into its L1, making room under the
   * turn's history budget: the next round's request holds them (memory tools' `restore: true`).
   */
  restore?: (ids: readonly string[]) => Promise<RestoreResult>;
};

export type RestoreResult = { restored: string[]; skipped: { id: string; reason: string }[] };

/** An image as a message part (OpenAI's `image_url` part, a data: URL for a tool's image). */
export type ImagePart = Extract<Exclude<Content, string>[number], { type: "image_url" }>;

/** A result with images (a screenshot): the text goes in the tool message, the images beside it. */
export type ToolResult = { text: string; images: ImagePart[] };

export type Tool = {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  run(args: unknown, signal: AbortSignal, context: ToolCallContext): Promise<string | ToolResult>;
};

/** Tools that come and go (a plugin's, while it runs): asked for its current list each time. */
export type ToolSource = () => readonly Tool[];

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly sources: ToolSource[] = [];

  addSource(source: ToolSource): void {
    this.sources.push(source);
  }

  /** Every tool now: registered ones first; a source's tool whose name is taken is left out. */
  private all(): Tool[] {
    const byName = new Map(this.tools);
    for (const source of this.sources) for (const tool of source()) if (!byName.has(tool.name)) byName.set(tool.name, tool);
    return [...byName.values()];
  }

  register(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new Error(`Cannot register tool ${tool.name}: the name is taken`);
    this.tools.set(tool.name, tool);
  }

  /** True when a registered (built-in) tool has this name. */
  has(name: string): boolean {
    return this.tools.has(name);
  }

  unregister(name: string): void {
    this.tools.delete(name);
  }

  specs(): ToolSpec[] {
    return this.all().map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
  }

  /** Runs a call for its text; every failure becomes a JSON error result the model can read. */
  async call(name: string, rawArguments: string, signal: AbortSignal, context: ToolCallContext): Promise<string> {
    return (await this.run(name, rawArguments, signal, context)).text;
  }

  /** Runs a call for its text and images; every failure becomes a JSON error result. */
  async run(name: string, rawArguments: string, signal: AbortSignal, context: ToolCallContext): Promise<ToolResult> {
    const failed = (error: string, message: string): ToolResult => ({ text: toolError(error, message), images: [] });
    const tool = this.tools.get(name) ?? this.all().find((t) => t.name === name);
    if (!tool) return failed("unknown_tool", `No tool named ${name}`);
    let args: unknown;
    try {
      args = rawArguments.trim() === "" ? {} : JSON.parse(rawArguments);
    } catch {
      return failed("bad_arguments", `The arguments are not valid JSON: ${rawArguments.slice(0, 200)}`);
    }
    try {
      const result = await tool.run(args, signal, context);
      return typeof result === "string" ? { text: result, images: [] } : result;
    } catch (error) {
      // A typed failure keeps its code (a memory the caller may not see: "not_found"), so the model
      // can tell "no such thing" from a broken tool.
      return failed(error instanceof HomedError ? error.code : "tool_failed", (error as Error).message);
    }
  }
}

/** The tools block's own framing (providers render definitions as one namespace in the prompt). */
export const TOOLS_OVERHEAD = 16;
/** Framing of one definition around its name, description and parameter schema. */
export const TOOL_DEFINITION_OVERHEAD = 8;

/**
 * Tokens the tool definitions take in a request: they share the model's window with the
 * messages, so the history budget leaves room for them. Counted on the JSON a provider is sent,
 * which is longer than the compact form providers render it in: the estimate errs on fitting.
 * The caller has awaited `loadTokenizer()`.
 */
export function toolSpecTokens(specs: readonly ToolSpec[]): number {
  if (specs.length === 0) return 0;
  let sum = TOOLS_OVERHEAD;
  for (const spec of specs) sum += TOOL_DEFINITION_OVERHEAD + countTokens(JSON.stringify(spec.function));
  return sum;
}

export const toolError = (error: string, message: string) => JSON.stringify({ error, message });
