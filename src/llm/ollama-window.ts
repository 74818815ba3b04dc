/**
 * What an Ollama server runs a model with. Ollama's OpenAI-compatible `/v1/models` reports no
 * window, and the model's nominal one (the table's 131,072 for Qwen2.5) is not what it serves:
 * Ollama runs every model with `num_ctx` tokens — a few thousand unless the model's Modelfile or the
 * server's OLLAMA_CONTEXT_LENGTH says more — and cuts a longer prompt from its start, system
 * prompt and recalled memory first, without an error. So homed asks its native API
 * (https://github.com/ollama/ollama/blob/main/docs/api.md): `GET /api/version` says the server is
 * Ollama, `POST /api/show` gives a model's `parameters`, where a Modelfile's `num_ctx` is.
 * Without one the window is unknown: the server's default is its own setting, not readable here.
 */
import { z } from "zod";
import type { ModelEntry } from "./list-models.ts";

/** The server's root: Ollama's native API sits beside its OpenAI-compatible `/v1`. */
const rootOf = (baseUrl: string) => baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");

/** Ollama names models `name:tag` and lists its library's as owned by "library": worth asking `/api/version`. */
export const looksLikeOllama = (entries: readonly ModelEntry[]) => entries.some((e) => e.owned_by === "library" || /^[\w./-]+:[\w.-]+$/.test(e.id));

const VersionWire = z.object({ version: z.string().min(1) });
const ShowWire = z.object({ parameters: z.string().optional() });

async function getJson(url: string, init: RequestInit, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
  return response.json();
}

/** Whether the server at `baseUrl` is Ollama (its `/api/version` answers with a version). */
export async function isOllama(baseUrl: string, timeoutMs: number): Promise<boolean> {
  try {
    return VersionWire.safeParse(await getJson(`${rootOf(baseUrl)}/api/version`, {}, timeoutMs)).success;
  } catch {
    return false;
  }
}

/** The `num_ctx` a model's Modelfile sets (Ollama runs it with that many tokens), or undefined. */
export async function ollamaNumCtx(baseUrl: string, model: string, timeoutMs: number): Promise<number | undefined> {
  try {
    // `model` since Ollama 0.5, `name` before it: both are sent.
    const body = JSON.stringify({ model, name: model });
    const show = ShowWire.safeParse(await getJson(`${rootOf(baseUrl)}/api/show`, { method: "POST", headers: { "content-type": "application/json" }, body }, timeoutMs));
    const numCtx = show.success ? /^num_ctx\s+(\d+)\s*$/m.exec(show.data.parameters ?? "")?.[1] : undefined;
    return numCtx === undefined ? undefined : Number(numCtx);
  } catch {
    return undefined;
  }
}
