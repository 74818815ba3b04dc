/**
 * What `/v1/chat/completions` accepts, parsed once here: the fields homed honours (forwarded to
 * the provider as given), the ones it refuses with a reason, and the rest of OpenAI's request
 * ignored. Refused rather than ignored: what would silently change the answer's shape (`n`,
 * `logprobs`) or drop the client's own tools.
 */
import { z } from "zod";
import { HomedError } from "../errors/index.ts";

const nullish = <T extends z.ZodType>(schema: T) => schema.nullish();

const MessageSchema = z
  .object({
    role: z.string(),
    content: z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }).loose()), z.null()]).optional(),
  })
  .loose();

/** Sent to the provider with every model call of the turn, unchanged (`tool_choice`: the first only). */
export const FORWARDED_PARAMS = [
  "temperature",
  "top_p",
  "max_tokens",
  "max_completion_tokens",
  "stop",
  "seed",
  "response_format",
  "tool_choice",
  "parallel_tool_calls",
  "presence_penalty",
  "frequency_penalty",
] as const;

export const CompletionRequestSchema = z
  .object({
    model: z.string().min(1),
    messages: z.array(MessageSchema).min(1),
    stream: nullish(z.boolean()),
    stream_options: nullish(z.object({ include_usage: z.boolean().optional() }).loose()),
    user: z.string().max(200).optional(),
    n: nullish(z.number().int()),
    temperature: nullish(z.number().min(0).max(2)),
    top_p: nullish(z.number().min(0).max(1)),
    max_tokens: nullish(z.number().int().positive()),
    max_completion_tokens: nullish(z.number().int().positive()),
    stop: nullish(z.union([z.string(), z.array(z.string()).max(4)])),
    seed: nullish(z.number().int()),
    response_format: nullish(z.object({ type: z.enum(["text", "json_object", "json_schema"]) }).loose()),
    tool_choice: nullish(z.union([z.enum(["none", "auto", "required"]), z.object({ type: z.literal("function"), function: z.object({ name: z.string() }) }).loose()])),
    parallel_tool_calls: nullish(z.boolean()),
    presence_penalty: nullish(z.number().min(-2).max(2)),
    frequency_penalty: nullish(z.number().min(-2).max(2)),
    tools: nullish(z.array(z.unknown())),
    functions: nullish(z.array(z.unknown())),
    logprobs: nullish(z.boolean()),
  })
  .loose();
export type CompletionRequest = z.output<typeof CompletionRequestSchema>;

const refuse = (param: string, message: string) => new HomedError("unsupported_value", message, { param });

/** Throws `unsupported_value` (400, naming the field) for what homed does not honour. */
export function refuseUnsupported(body: CompletionRequest): void {
  if (body.n != null && body.n !== 1) throw refuse("n", `n=${body.n} is not supported: homed gives one answer per request (send n=1 or leave it out)`);
  if (body.logprobs) throw refuse("logprobs", "logprobs is not supported: homed's answer may span several model calls, so it has no single set of token probabilities");
  for (const param of ["tools", "functions"] as const) {
    if (body[param]?.length) {
      throw refuse(param, `Client ${param} are not supported yet: homed runs its own tools (memory, plugins) inside the turn; send the request without '${param}'`);
    }
  }
}

/** The honoured fields the client set, as they go to the provider. */
export function forwardedParams(body: CompletionRequest): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const name of FORWARDED_PARAMS) if (body[name] != null) params[name] = body[name];
  return params;
}
