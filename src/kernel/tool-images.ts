/**
 * Images that tools return (a browser screenshot, an MCP server's image block) as the model and
 * the store see them. OpenAI-compatible APIs take images only in user messages, not in tool
 * results, so a round's images follow its tool results as one user message that says where they
 * come from; stored in the round's event, each becomes an image block like a user's own image
 * (embedded in the text space when an image model is configured, so recall finds it). A model
 * that reads text only gets `[image]` in each image's place instead: an image part in its
 * history would make every later request fail.
 */
import type { Content } from "../context/index.ts";
import type { ProviderMessage, ToolCall } from "../llm/index.ts";
import type { ImagePart } from "./tools.ts";

/** The user message carrying a round's images after its tool results, or none. */
export function toolImagesMessage(shown: readonly { call: ToolCall; images: readonly ImagePart[] }[]): ProviderMessage[] {
  const withImages = shown.filter((s) => s.images.length > 0);
  if (withImages.length === 0) return [];
  const from = withImages.map((s) => `${s.call.function.name} (call ${s.call.id}): ${s.images.length} image${s.images.length === 1 ? "" : "s"}`).join("; ");
  const content: Content = [{ type: "text", text: `[Images returned by the tool calls above, not sent by the user — ${from}]` }, ...withImages.flatMap((s) => s.images)];
  return [{ role: "user", content }];
}

/** What a text-only model is sent: each image part becomes the text `[image]`. */
export function withoutImages(messages: readonly ProviderMessage[]): ProviderMessage[] {
  return messages.map((m) => {
    if (!Array.isArray(m.content) || !m.content.some((p) => p.type === "image_url")) return m;
    return { ...m, content: m.content.map((p) => (p.type === "image_url" ? { type: "text" as const, text: "[image]" } : p)) } as ProviderMessage;
  });
}
