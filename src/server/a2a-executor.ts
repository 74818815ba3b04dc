/**
 * What runs an A2A task: one kernel turn in the conversation its `contextId` names, among the
 * calling key's partner's conversations on channel "a2a" (the admin token's partner is "default").
 * A new contextId is a new conversation, the same one continues it, and a task sent without one
 * gets a fresh id from the SDK (DefaultRequestHandler: `message.contextId || task.contextId ||
 * randomUUID()`), so an orchestrator's independent tasks never see each other's messages. The
 * contextId is looked up with the partner: another key's partner sending the same id gets a
 * conversation of its own, never this one. Memory (L2/L3) is the partner's across its contexts and
 * channels, as for any other partner. The task goes
 * submitted → working → completed with the answer as its status message (and, while streaming,
 * each piece of the answer as an artifact update as the model writes it); a turn that fails ends
 * the task `failed` with the reason; `tasks/cancel` stops the turn (what was said is kept).
 */
import { randomUUID } from "node:crypto";
import { Role, TaskState, type Message, type Part } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import type { Kernel } from "../kernel/index.ts";
import type { Logger } from "../log/index.ts";
import { publicError } from "./errors.ts";

/** The session channel of A2A turns. */
export const A2A_CHANNEL = "a2a";

/** Longest contextId kept as a conversation's key: the SDK's are UUIDs; a longer one is refused, not cut (two would meet). */
export const MAX_CONTEXT_ID_LENGTH = 256;

const textPart = (text: string): Part => ({ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" });

const agentMessage = (text: string, taskId: string, contextId: string): Message => ({
  messageId: randomUUID(),
  role: Role.ROLE_AGENT,
  parts: [textPart(text)],
  taskId,
  contextId,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

/**
 * The message's text, or why it is refused: homed reads text parts only, and would drop a file or
 * data part unread. (A part that names a media type other than text/plain never gets here: the
 * SDK's handler refuses it with ContentTypeNotSupported, since the card declares text/plain.)
 */
export function messageText(message: Message): { text: string } | { refused: string } {
  const other = message.parts.find((p) => p.content?.$case !== "text");
  if (other) return { refused: `homed reads text parts only; this message has a ${other.content?.$case ?? "empty"} part` };
  const text = message.parts
    .map((p) => (p.content?.$case === "text" ? p.content.value : ""))
    .join("\n")
    .trim();
  return text ? { text } : { refused: "The message has no text: send a text part" };
}

export class HomedAgentExecutor implements AgentExecutor {
  /** Turns in progress, by task, so `tasks/cancel` can stop one. */
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly kernel: Kernel,
    private readonly log: Pick<Logger, "warn" | "error">,
  ) {}

  execute = async (request: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = request;
    const read = messageText(request.userMessage);
    const partner = request.context.user?.userName ?? "default";
    const status = (state: TaskState, text?: string) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: { state, timestamp: new Date().toISOString(), message: text === undefined ? undefined : agentMessage(text, taskId, contextId) },
          metadata: undefined,
        }),
      );
    if (!request.task) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: new Date().toISOString(), message: undefined },
          artifacts: [],
          history: [request.userMessage],
          metadata: undefined,
        }),
      );
    }
    if ("refused" in read) return status(TaskState.TASK_STATE_REJECTED, read.refused);
    if (contextId.length > MAX_CONTEXT_ID_LENGTH) return status(TaskState.TASK_STATE_REJECTED, `The contextId is longer than ${MAX_CONTEXT_ID_LENGTH} characters`);
    const input = read.text;
    status(TaskState.TASK_STATE_WORKING);
    const controller = new AbortController();
    this.running.set(taskId, controller);
    const artifactId = randomUUID();
    let pieces = 0;
    try {
      const session = await this.kernel.sessions.openContext(A2A_CHANNEL, partner, contextId);
      const result = await this.kernel.turn({
        session,
        input,
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type !== "content" || !e.text) return;
          bus.publish(
            AgentEvent.artifactUpdate({
              taskId,
              contextId,
              artifact: { artifactId, name: "answer", description: "", parts: [textPart(e.text)], metadata: undefined, extensions: [] },
              append: pieces++ > 0,
              lastChunk: false,
              metadata: undefined,
            }),
          );
        },
      });
      if (result.stopReason === "cancelled") status(TaskState.TASK_STATE_CANCELED, result.text || "Cancelled");
      else if (result.stopReason === "blocked") status(TaskState.TASK_STATE_REJECTED, result.text || result.reason || "The message was refused");
      else status(TaskState.TASK_STATE_COMPLETED, result.text);
    } catch (error) {
      const known = publicError(error);
      if (!known) this.log.error(`a2a task ${taskId} failed: ${(error as Error).stack ?? error}`);
      status(TaskState.TASK_STATE_FAILED, known ? `${known.error}: ${known.message}` : "The turn failed; see homed's log.");
    } finally {
      this.running.delete(taskId);
    }
  };

  cancelTask = async (taskId: string, _bus: ExecutionEventBus): Promise<void> => {
    // The turn ends as `cancelled` and execute() publishes the final status.
    this.running.get(taskId)?.abort(new Error("cancelled by the A2A client"));
  };
}
