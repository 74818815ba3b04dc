/**
 * The models an OpenAI-compatible provider offers (`GET <baseUrl>/models`): their ids for the
 * console's provider form (a person picks a model from the list instead of typing a name from the
 * docs), and each model's entry as the provider wrote it — some say how long a context it serves
 * (reported-window.ts).
 */
import { z } from "zod";
import { errorFromResponse, ProviderError } from "./errors.ts";

/** One model as the provider lists it: its id, and whatever else the provider adds. */
export type ModelEntry = { id: string } & Record<string, unknown>;

const ModelsWire = z.object({ data: z.array(z.object({ id: z.string().min(1) }).passthrough()) });

/** The provider's model entries as listed; a provider error (HTTP, network, timeout, not a list) as ProviderError. */
export async function fetchModelEntries(baseUrl: string, apiKey: string | undefined, timeoutMs = 15_000): Promise<ModelEntry[]> {
  const url = `${baseUrl.replace(/\/+$/, "")}/models`;
  let response: Response;
  try {
    response = await fetch(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if ((error as Error).name === "TimeoutError") throw new ProviderError("timeout", `The provider did not list its models within ${timeoutMs} ms`, undefined, undefined, { cause: error });
    throw new ProviderError("network", `Cannot reach the provider at ${url}: ${(error as Error).message}`, undefined, undefined, { cause: error });
  }
  if (!response.ok) throw await errorFromResponse(response);
  const text = await response.text();
  let parsed: ReturnType<typeof ModelsWire.safeParse>;
  try {
    parsed = ModelsWire.safeParse(JSON.parse(text));
  } catch (error) {
    throw new ProviderError("bad_response", `The provider's model list is not JSON: ${text.slice(0, 200)}`, undefined, text, { cause: error });
  }
  if (!parsed.success) throw new ProviderError("bad_response", `The provider's answer is not a model list: ${parsed.error.issues[0]?.message}`, undefined, text);
  return parsed.data.data;
}

/** Model ids in name order; errors as `fetchModelEntries`. */
export async function listModels(baseUrl: string, apiKey: string | undefined, timeoutMs = 15_000): Promise<string[]> {
  return [...new Set((await fetchModelEntries(baseUrl, apiKey, timeoutMs)).map((m) => m.id))].sort();
}
