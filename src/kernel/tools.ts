/**
 * Tools the model may call. Built-in tools and plugin tools register here; a tool's failure is
 * returned to the model as data (`{"error", "message"}`), never thrown through the loop.
 */
import type { ToolSpec } from "../llm/index.ts";

/** Who is calling: tools that work within a scope (memory) read it from here. */
export type ToolCallContext = { sessionId: string; partner: string };

export type Tool = {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  run(args: unknown, signal: AbortSignal, context: ToolCallContext): Promise<string>;
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

  unregister(name: string): void {
    this.tools.delete(name);
  }

  specs(): ToolSpec[] {
    return this.all().map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
  }

  /** Runs a call; every failure becomes a JSON error result the model can read. */
  async call(name: string, rawArguments: string, signal: AbortSignal, context: ToolCallContext): Promise<string> {
    const tool = this.tools.get(name) ?? this.all().find((t) => t.name === name);
    if (!tool) return toolError("unknown_tool", `No tool named ${name}`);
    let args: unknown;
    try {
      args = rawArguments.trim() === "" ? {} : JSON.parse(rawArguments);
    } catch {
      return toolError("bad_arguments", `The arguments are not valid JSON: ${rawArguments.slice(0, 200)}`);
    }
    try {
      return await tool.run(args, signal, context);
    } catch (error) {
      return toolError("tool_failed", (error as Error).message);
    }
  }
}

export const toolError = (error: string, message: string) => JSON.stringify({ error, message });
