/**
 * Plugins inside a turn: their tools join the registry while they run, and their stage hooks
 * run through one kernel participant, so plugins are stage participants like built-in memory.
 */
import { z } from "zod";
import { MAX_HOOK_DEADLINE_MS, META, type PluginHost, type Stage } from "../plugins/index.ts";
import type { AssistantMessage } from "../llm/index.ts";
import type { Hooks, Participant } from "./stages.ts";
import { toolError, type ImagePart, type Tool, type ToolSource } from "./tools.ts";

/**
 * The running plugins' tools, as the model sees them. A tool name two or more plugins offer is
 * namespaced for every one of them as `<plugin>__<tool>`, so each stays reachable; none keeps
 * the bare name, because plugins start in parallel and "first" would change from run to run.
 * A plugin tool named like a built-in one (`builtIn`) is namespaced too: the registry would hide it.
 * Each collision is logged once with the plugins that share the name.
 */
export function pluginTools(host: PluginHost, warn: (line: string) => void = () => {}, builtIn: (name: string) => boolean = () => false): ToolSource {
  const warned = new Set<string>();
  return () => {
    const hosted = host.listTools();
    const offeredBy = new Map<string, string[]>();
    for (const { plugin, tool } of hosted) offeredBy.set(tool.name, [...(offeredBy.get(tool.name) ?? []), plugin]);
    const collides = (name: string) => offeredBy.get(name)!.length > 1 || builtIn(name);
    for (const [name, plugins] of offeredBy) {
      const key = `${name} ${plugins.join(" ")}`;
      if (!collides(name) || warned.has(key)) continue;
      warned.add(key);
      const by = builtIn(name) ? ["homed (built-in)", ...plugins] : plugins;
      warn(`plugins: tool ${name} is offered by ${by.join(" and ")}; the model sees ${plugins.map((p) => namespaced(p, name)).join(" and ")}`);
    }
    return hosted.map(
      ({ plugin, tool }): Tool => ({
        name: collides(tool.name) ? namespaced(plugin, tool.name) : tool.name,
        description: tool.description ?? "",
        parameters: (tool.inputSchema as Record<string, unknown> | undefined) ?? { type: "object" },
        async run(args, _signal, context) {
          if (typeof args !== "object" || args === null || Array.isArray(args)) return toolError("bad_arguments", "Tool arguments must be a JSON object");
          const result = await host.callTool(plugin, tool.name, args as Record<string, unknown>, { meta: { [META.session]: context.sessionId } });
          const images = result.content.flatMap(imagePart);
          const text = forModel(result.content.map(partText).join("\n") || JSON.stringify(result.structuredContent ?? {}));
          if (result.isError) return asFailure(text);
          return images.length ? { text, images } : text;
        },
      }),
    );
  };
}

/**
 * The most of a tool result's text the model is given (the rest is cut, with the size told):
 * a plugin may return a 256 MiB file through its segment, but no model window takes that, and
 * it would be stored and searched with the turn. 1,000,000 characters is what files_read
 * returned at most before results moved through shared memory (a 1 MiB file).
 */
export const MAX_TOOL_TEXT_CHARS = 1_000_000;

function forModel(text: string): string {
  if (text.length <= MAX_TOOL_TEXT_CHARS) return text;
  return `${text.slice(0, MAX_TOOL_TEXT_CHARS)}\n[… ${text.length - MAX_TOOL_TEXT_CHARS} more characters cut: the result is ${text.length} characters, more than a model is given]`;
}

/** Image types every vision API takes; a larger image than the cap is named, not sent (OpenAI's limit is 20 MB). */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);
export const MAX_TOOL_IMAGE_BYTES = 8 * 1024 * 1024;
const ImageContentSchema = z.looseObject({ type: z.literal("image"), data: z.base64(), mimeType: z.string() });

/** An MCP image block as an image part for the model (a data: URL), when it is one it can read. */
function imagePart(part: { type: string }): ImagePart[] {
  const image = ImageContentSchema.safeParse(part);
  if (!image.success || !IMAGE_TYPES.has(image.data.mimeType) || imageBytes(image.data.data) > MAX_TOOL_IMAGE_BYTES) return [];
  return [{ type: "image_url", image_url: { url: `data:${image.data.mimeType};base64,${image.data.data}` } }];
}

const imageBytes = (base64: string) => Math.floor((base64.length * 3) / 4);

/** A content part as the model reads it: a resource by its name and URI, so it can be asked for. */
function partText(part: { type: string; [key: string]: unknown }): string {
  if (part.type === "text") return String(part.text ?? "");
  if (part.type === "image") {
    const shown = imagePart(part).length > 0;
    const size = typeof part.data === "string" ? `, ${imageBytes(part.data)} bytes` : "";
    return `[image ${String(part.mimeType ?? "")}${size}${shown ? ": shown after the tool results" : `: not shown (${IMAGE_TYPES.has(String(part.mimeType)) ? `over ${MAX_TOOL_IMAGE_BYTES / 1024 / 1024} MiB` : "not a PNG, JPEG, WebP or GIF"})`}]`;
  }
  if (part.type === "resource_link") return `[resource ${String(part.name ?? "")}: ${String(part.uri ?? "")}${part.mimeType ? ` (${String(part.mimeType)})` : ""}]`;
  const resource = part.resource as { uri?: unknown; text?: unknown } | undefined;
  if (part.type === "resource" && resource) return typeof resource.text === "string" ? `[resource ${String(resource.uri)}]\n${resource.text}` : `[resource ${String(resource.uri)}]`;
  return `[${part.type}]`;
}

/**
 * A result the plugin marked `isError`, in the kernel's failure shape (`{"error","message"}`), so
 * the model reads it as a failure like any other tool's: a plugin's own error object (the SDK's
 * `{"error":"terminal_gone",…}`) passes as it is, plain text becomes its message.
 */
function asFailure(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body === "object" && body !== null && typeof (body as { error?: unknown }).error === "string") return text;
  } catch {
    // Plain text: wrapped below.
  }
  return toolError("tool_failed", text);
}

const namespaced = (plugin: string, tool: string) => `${plugin}__${tool}`;

const Replaced = {
  on_input: z.object({ input: z.string() }),
  post_action: z.object({ message: z.looseObject({ role: z.literal("assistant") }) }),
  before_toolcall: z.object({ call: z.object({ function: z.object({ arguments: z.string() }) }) }),
  after_toolcall: z.object({ result: z.string() }),
  before_output: z.object({ text: z.string() }),
};

/**
 * One participant that passes every stage through the plugins that declared it (in start-up
 * order, each under its own deadline). What each stage takes is the seed's table (hooks.ts):
 * on_input blocks (deny), short-circuits (reply: stored as the turn's answer, no model call) or
 * rewrites; pre_action injects text into the system message (so the context budget counts it, and
 * the inspector's `recall` event names each plugin with its size); before_toolcall denies or
 * rewrites; post_action, after_toolcall and before_output replace; after_output's statistics
 * are logged and shown as the turn's `report` event. A replacement of the wrong shape is ignored
 * and logged. A plugin whose failure policy is `fail` fails the turn when it fails.
 */
export function pluginParticipant(host: PluginHost, log: (line: string) => void): Participant {
  // Per-turn lines carry the session, so one turn's faults can be told from another's.
  const inSession = (payload: unknown, line: string) => {
    const session = (payload as { sessionId?: unknown }).sessionId;
    log(typeof session === "string" ? `session ${session}: ${line}` : line);
  };
  const through = async (stage: Stage, payload: unknown) => {
    const outcome = await host.runHook(stage, payload);
    for (const s of outcome.skipped) inSession(payload, `plugin ${s.plugin} skipped at ${stage}: ${s.reason}`);
    return outcome;
  };
  const replaced = <K extends keyof typeof Replaced>(stage: K, payload: unknown, original: unknown): z.infer<(typeof Replaced)[K]> | undefined => {
    if (payload === original) return undefined;
    const parsed = Replaced[stage].safeParse(payload);
    if (!parsed.success) inSession(original, `a plugin's replacement at ${stage} has the wrong shape and was ignored: ${parsed.error.issues[0]?.message}`);
    return parsed.success ? (parsed.data as z.infer<(typeof Replaced)[K]>) : undefined;
  };
  const hooks: Hooks = {
    async on_input(p) {
      const o = await through("on_input", p);
      if (o.denied) return { block: `${o.by}: ${o.reason}` };
      if (o.reply) return { reply: o.reply.text };
      const r = replaced("on_input", o.payload, p);
      return r ? { input: r.input } : undefined;
    },
    async pre_action(p) {
      const o = await through("pre_action", p);
      const injections = o.denied ? [] : (o.injections ?? []);
      if (injections.length === 0) return undefined;
      return {
        inject: injections.map((i) => `From plugin ${i.plugin}:\n${i.text}`).join("\n\n"),
        report: { plugins: injections.map((i) => ({ plugin: i.plugin, chars: i.text.length, ...i.report })) },
      };
    },
    async post_action(p) {
      const o = await through("post_action", p);
      const r = o.denied ? undefined : replaced("post_action", o.payload, p);
      return r ? { message: r.message as unknown as AssistantMessage } : undefined;
    },
    async before_toolcall(p) {
      const o = await through("before_toolcall", p);
      if (o.denied) return { deny: `${o.by}: ${o.reason}` };
      const r = replaced("before_toolcall", o.payload, p);
      return r ? { arguments: r.call.function.arguments } : undefined;
    },
    async after_toolcall(p) {
      const o = await through("after_toolcall", p);
      const r = o.denied ? undefined : replaced("after_toolcall", o.payload, p);
      return r ? { result: r.result } : undefined;
    },
    async before_output(p) {
      const o = await through("before_output", p);
      const r = o.denied ? undefined : replaced("before_output", o.payload, p);
      return r ? { text: r.text } : undefined;
    },
    async after_output(p) {
      const o = await through("after_output", p);
      const reports = o.denied ? [] : (o.reports ?? []);
      for (const r of reports) inSession(p, `plugin ${r.plugin} reports on turn ${p.turnId}: ${JSON.stringify(r.report)}`);
      return reports.length ? { report: Object.fromEntries(reports.map((r) => [r.plugin, r.report])) } : undefined;
    },
  };
  // Each plugin is bounded by its own deadline (at most MAX_HOOK_DEADLINE_MS); this one bounds
  // a whole chain of them. `fail` lets a plugin's own `fail` policy (HookFailedError) end the turn;
  // every other plugin failure is skipped inside the host and never reaches here.
  return { name: "plugins", hooks, deadlineMs: 6 * MAX_HOOK_DEADLINE_MS, onFailure: "fail" };
}
