/** web_fetch: fetch a page within size and time limits and return its readable text. */
import { definePlugin, defineTool, ToolFailure, z } from "../sdk/index.ts";
import { FetchFailure, fetchLimited } from "./fetch-limited.ts";
import { readableText } from "./readable.ts";

const ConfigSchema = z.object({
  timeoutMs: z.number().int().positive().default(15_000),
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024),
  /** Characters of text returned at most; the model's context is the scarce resource. */
  maxChars: z.number().int().positive().default(40_000),
});

export const webFetchPlugin = definePlugin({
  name: "web_fetch",
  version: "1.0.0",
  description: "Fetch a web page and return its readable text.",
  provides: ["web"],
  config: ConfigSchema,
  tools: (config: z.infer<typeof ConfigSchema>) => [
    defineTool({
      name: "web_fetch",
      description: "Fetch an http(s) URL; HTML comes back as readable text (title and main content), text and JSON as they are.",
      input: z.object({ url: z.string().min(1), maxChars: z.number().int().positive().max(config.maxChars).optional() }),
      run: async ({ url, maxChars }, { signal }) => {
        const page = await fetchLimited(url, { timeoutMs: config.timeoutMs, maxBytes: config.maxBytes, signal }).catch((error: unknown) => {
          if (error instanceof FetchFailure) throw new ToolFailure(error.code, error.message, { url });
          throw error;
        });
        const type = page.contentType.split(";")[0]!.trim().toLowerCase();
        const charset = /charset=([^;]+)/i.exec(page.contentType)?.[1]?.trim() ?? "utf-8";
        if (type && !type.startsWith("text/") && !/json|xml|javascript/.test(type)) {
          throw new ToolFailure("unsupported_content", `Cannot read ${url}: content type ${type} is not text`, { url, contentType: type });
        }
        const raw = decode(page.body, charset);
        const { title, text } = type === "text/html" || type === "application/xhtml+xml" || (!type && /<html/i.test(raw)) ? readableText(raw) : { title: "", text: raw };
        const limit = maxChars ?? config.maxChars;
        return {
          url: page.url,
          status: page.status,
          contentType: type,
          title,
          text: text.slice(0, limit),
          truncated: page.truncated || text.length > limit,
        };
      },
    }),
  ],
});

function decode(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch (error) {
    // An unknown charset label: UTF-8 is the web's default and the best guess.
    if (error instanceof RangeError) return new TextDecoder().decode(bytes);
    throw error;
  }
}
