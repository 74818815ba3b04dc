/** Reads a `text/event-stream` response body as `{event, data}` messages. */
import { EventSourceParserStream } from "eventsource-parser/stream";

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const events = body.pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>).pipeThrough(new EventSourceParserStream());
  for await (const message of events) yield { event: message.event ?? "message", data: message.data };
}
