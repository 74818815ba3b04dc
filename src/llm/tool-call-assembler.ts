/**
 * Assembles streamed tool-call deltas into whole calls. Deltas are matched by `index`; when a
 * provider repeats an index for a new call (a new `id` arrives under an index already taken) or
 * omits indexes, the `id` decides, and an id-less, index-less delta continues the latest call.
 */
import type { ToolCall } from "./types.ts";

export type ToolCallDelta = {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
};

type Partial = { id: string; name: string; arguments: string };

export class ToolCallAssembler {
  private readonly calls: Partial[] = [];
  private readonly byIndex = new Map<number, Partial>();
  private readonly byId = new Map<string, Partial>();

  /** Adds one delta; returns the position of the call it belongs to. */
  add(delta: ToolCallDelta): number {
    const call = this.target(delta);
    if (delta.function?.name) call.name += delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
    return this.calls.indexOf(call);
  }

  private target(delta: ToolCallDelta): Partial {
    if (delta.id) {
      const known = this.byId.get(delta.id);
      if (known) return known;
      const byIndex = delta.index === undefined ? undefined : this.byIndex.get(delta.index);
      // Same index, no id yet: this delta names the call already started under that index.
      if (byIndex && byIndex.id === "") {
        byIndex.id = delta.id;
        this.byId.set(delta.id, byIndex);
        return byIndex;
      }
      return this.start(delta.id, delta.index);
    }
    if (delta.index !== undefined) return this.byIndex.get(delta.index) ?? this.start("", delta.index);
    return this.calls.at(-1) ?? this.start("", undefined);
  }

  private start(id: string, index: number | undefined): Partial {
    const call = { id, name: "", arguments: "" };
    this.calls.push(call);
    if (id) this.byId.set(id, call);
    if (index !== undefined) this.byIndex.set(index, call);
    return call;
  }

  /** The assembled calls; a call the provider never gave an id gets a generated one. */
  result(): ToolCall[] {
    return this.calls.map((c, i) => ({
      id: c.id || `call_${i}_${c.name || "unnamed"}`,
      type: "function" as const,
      function: { name: c.name, arguments: c.arguments },
    }));
  }
}
