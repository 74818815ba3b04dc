/**
 * Channel plugins: a way to talk to homed (a chat network, a mail box, a webhook) as a plugin.
 * `defineChannel` declares the role; homed opens the channel once it can take turns (and again
 * after each restart), and the plugin then hands it messages with `homed.send` and sends what
 * homed says first (a reminder's answer) from `deliver`. The wire is src/protocol/channel.ts;
 * docs/channel-plugins.md has a worked example.
 */
import { z } from "zod";
import {
  AnswerDeltaSchema,
  CHANNEL_METHODS,
  DeliverySchema,
  ErrorCode,
  InboundAnswerSchema,
  RpcError,
  type Delivery,
  type InboundAnswer,
  type InboundMessage,
  type Peer,
} from "../../src/protocol/index.ts";
import type { Lifecycle, PluginDefinition } from "./serve.ts";
import type { ToolDefinition } from "./tool.ts";

/** A turn takes seconds to minutes of a model: `send` waits this long for the answer unless told otherwise. */
export const SEND_TIMEOUT_MS = 10 * 60_000;

export type SendOptions = {
  /** Called with the answer's text as the model writes it (the message is sent with `stream: true`). */
  onDelta?: (text: string) => void;
  timeoutMs?: number;
};

/** homed, as a channel plugin speaks to it. */
export type ChannelHost = {
  /**
   * Hands homed one inbound message; resolves with the answer once the turn ends. The session is
   * the peer's (one per peer); homed decides the partner from the peer, so the plugin never names one.
   */
  send(message: InboundMessage, options?: SendOptions): Promise<InboundAnswer>;
  /**
   * A line for the daemon log, under the channel's name (an answer the network refused): what
   * the person running homed should see. At most 5 a second reach the log; the plugin's stderr
   * stays its own log (the console's plugin page).
   */
  report(text: string): void;
};

/** What an open channel does when homed speaks first: send `delivery.text` to `delivery.peer`. Returns false when it could not. */
export type DeliverHandler = (delivery: Delivery) => boolean | undefined | Promise<boolean | undefined>;

export type ChannelOpen<C extends z.ZodType> = (context: { config: z.infer<C>; homed: ChannelHost; lifecycle: Lifecycle }) => { deliver: DeliverHandler } | Promise<{ deliver: DeliverHandler }>;

export type ChannelDefinition<C extends z.ZodType = z.ZodType> = Omit<PluginDefinition<C>, "tools" | "channel"> & {
  /** Tools beside the channel (none needed). */
  tools?: PluginDefinition<C>["tools"];
  /** Called when homed opens the channel: start listening to the network (in the background), return how to deliver. */
  open: ChannelOpen<C>;
};

/** A channel as a plugin definition for `servePlugin` / `serveChannel`. */
export function defineChannel<C extends z.ZodType>(channel: ChannelDefinition<C>): PluginDefinition {
  const { open, tools, ...rest } = channel;
  return { ...rest, tools: tools ?? (() => [] as ToolDefinition[]), channel: open } as unknown as PluginDefinition;
}

let nextMessage = 1;

/** The SDK's side of the channel methods on the plugin's peer; `open` is the definition's. */
export function serveChannelMethods(peer: Peer, open: ChannelOpen<z.ZodType>, config: unknown, lifecycle: Lifecycle, log: (line: string) => void): void {
  const deltas = new Map<string, (text: string) => void>();
  let opened: Promise<{ deliver: DeliverHandler }> | undefined;
  const homed: ChannelHost = {
    async send(message, options = {}) {
      const messageId = options.onDelta ? (message.messageId ?? `sdk-${process.pid}-${nextMessage++}`) : message.messageId;
      if (options.onDelta) deltas.set(messageId!, options.onDelta);
      try {
        const raw = await peer.request(
          CHANNEL_METHODS.message,
          { ...message, ...(messageId ? { messageId } : {}), ...(options.onDelta ? { stream: true } : {}) },
          { timeoutMs: options.timeoutMs ?? SEND_TIMEOUT_MS },
        );
        return InboundAnswerSchema.parse(raw);
      } finally {
        if (options.onDelta) deltas.delete(messageId!);
      }
    },
    report(text) {
      log(text);
      void peer.notify(CHANNEL_METHODS.report, { text: text.slice(0, 2000) }).catch(() => {});
    },
  };
  peer.on(CHANNEL_METHODS.delta, (params) => {
    const delta = AnswerDeltaSchema.safeParse(params);
    if (delta.success) deltas.get(delta.data.messageId)?.(delta.data.text);
    else log(`Cannot read a delta: ${z.prettifyError(delta.error)}`);
  });
  peer.handle(CHANNEL_METHODS.open, async () => {
    // Once per process: homed opens a channel each time the plugin comes to run.
    opened ??= Promise.resolve(open({ config, homed, lifecycle }));
    await opened;
    return {};
  });
  peer.handle(CHANNEL_METHODS.deliver, async (params) => {
    const delivery = DeliverySchema.safeParse(params);
    if (!delivery.success) throw new RpcError(ErrorCode.InvalidParams, `Cannot deliver: ${z.prettifyError(delivery.error)}`);
    if (!opened) throw new RpcError(ErrorCode.InternalError, "Cannot deliver: homed has not opened the channel yet");
    const { deliver } = await opened;
    return { delivered: (await deliver(delivery.data)) !== false };
  });
}
