/**
 * Model providers: OpenAI-compatible endpoints with a model and an API key. Settings live in
 * the `settings` table; keys in `secrets`, sealed (store/secret-box.ts), which no read path
 * returns (write-only). A first
 * provider can come from the environment (HOMED_BASE_URL, HOMED_API_KEY, HOMED_MODEL) so a
 * headless server needs no console; it is used when no stored provider is active.
 */
import { randomUUID } from "node:crypto";
import type { Client } from "@libsql/client";
import { z } from "zod";
import { deleteSecret, deleteSetting, hasSecret, putSecret, readSetting, sealedSecret, writeSetting, type SecretBox } from "../store/index.ts";
import { HomedError } from "../errors/index.ts";
import { CONTEXT_WINDOW_MAX, CONTEXT_WINDOW_MIN, type AudioTarget } from "../llm/index.ts";

/**
 * Control characters (a line break, a tab, NUL) cannot be sent in an HTTP header: a key or URL
 * holding one was stored, and every later chat failed with 502 "Header 'Authorization' has
 * invalid value". Refused where they come in, with the reason. A key goes in a header whole, so it
 * must be printable ASCII (every provider's keys are); a URL may hold any other character.
 */
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;
const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;
/** Checked before the URL is parsed: zod's URL check would quietly drop a line break. */
export const BaseUrlSchema = z
  .string()
  .regex(NO_CONTROL_CHARACTERS, "baseUrl must not contain control characters (a line break, a tab)")
  .pipe(z.url({ protocol: /^https?$/, error: "baseUrl must be an http(s) URL" }));
export const ApiKeySchema = z.string().max(1000).regex(PRINTABLE_ASCII, "apiKey must be printable ASCII, without line breaks or tabs: paste the key alone");

export const ProviderInputSchema = z.object({
  name: z.string().min(1).max(100),
  preset: z.string().max(40).optional(),
  baseUrl: BaseUrlSchema,
  model: z.string().min(1).max(200),
  /** Write-only: stored in secrets, never returned. Empty string clears it. */
  apiKey: ApiKeySchema.optional(),
  /** false: the model reads text only, and images (a user's, a tool's) reach it as `[image]`. */
  vision: z.boolean().optional(),
  /**
   * The model's context window in tokens, when neither the provider's own model list
   * (llm/reported-window.ts) nor the table of well-known models (llm/context-windows.ts) knows it,
   * or they know it wrong: recall's injection grows with it (memory/injection-window.ts).
   */
  contextWindow: z.number().int().min(CONTEXT_WINDOW_MIN).max(CONTEXT_WINDOW_MAX).optional(),
  /** The model its `/audio/transcriptions` endpoint hears voice messages with (e.g. whisper-1); none: voice messages stay untranscribed. */
  transcriptionModel: z.string().min(1).max(200).optional(),
  /** The model its `/audio/speech` endpoint speaks answers with (e.g. tts-1); none: the console speaks with the browser's voice. */
  speechModel: z.string().min(1).max(200).optional(),
  /** The voice `/audio/speech` is asked for (default alloy). */
  speechVoice: z.string().min(1).max(100).optional(),
});
export type ProviderInput = z.infer<typeof ProviderInputSchema>;

/** A provider as every read path shows it: whether a key is set, never the key. */
export type ProviderView = {
  id: string;
  name: string;
  preset?: string;
  baseUrl: string;
  model: string;
  vision?: boolean;
  contextWindow?: number;
  transcriptionModel?: string;
  speechModel?: string;
  speechVoice?: string;
  hasKey: boolean;
  active: boolean;
  source: "stored" | "environment";
};

/** What a model call needs, key included: internal use only. */
export type ProviderTarget = { id: string; baseUrl: string; model: string; apiKey?: string; vision?: boolean; contextWindow?: number };

const StoredSchema = z.array(ProviderInputSchema.omit({ apiKey: true }).extend({ id: z.string() }));
type Stored = z.infer<typeof StoredSchema>;

/** The `secrets` row of a provider's API key. */
const keyName = (providerId: string) => `provider:${providerId}:apiKey`;

export type ProviderEnv = {
  HOMED_BASE_URL?: string;
  HOMED_API_KEY?: string;
  HOMED_MODEL?: string;
  HOMED_CONTEXT_WINDOW?: string;
  HOMED_TRANSCRIPTION_MODEL?: string;
  HOMED_SPEECH_MODEL?: string;
};

/** What a provider's audio endpoints are used for: hearing voice messages, speaking answers. */
export type AudioUse = "transcription" | "speech";

export class ProviderStore {
  constructor(
    private readonly client: Client,
    private readonly secrets: SecretBox,
    private readonly env: ProviderEnv = {},
  ) {
    const window = env.HOMED_CONTEXT_WINDOW;
    const parsed = window === undefined || window === "" ? undefined : ProviderInputSchema.shape.contextWindow.safeParse(Number(window));
    // Checked once, at start: a typo stops the daemon with its name instead of sizing recall wrong.
    if (parsed && !parsed.success) throw new HomedError("invalid_request", `HOMED_CONTEXT_WINDOW=${window}: give the model's context window in tokens, from 1024 to 10000000`);
    this.envWindow = parsed?.data;
  }

  /** HOMED_CONTEXT_WINDOW, checked. */
  private readonly envWindow: number | undefined;

  private async stored(): Promise<Stored> {
    return StoredSchema.parse((await readSetting(this.client, "providers")) ?? []);
  }

  private hasKey(id: string): Promise<boolean> {
    return hasSecret(this.client, keyName(id));
  }

  /** The key, opened; throws SecretUnreadable when another secrets.key sealed it. */
  private async key(id: string): Promise<string | undefined> {
    const name = keyName(id);
    const sealed = await sealedSecret(this.client, name);
    return sealed === undefined ? undefined : this.secrets.open(name, sealed);
  }

  private envProvider(): ProviderTarget | undefined {
    const { HOMED_BASE_URL: baseUrl, HOMED_MODEL: model, HOMED_API_KEY: apiKey } = this.env;
    if (!baseUrl || !model) return undefined;
    return { id: "env", baseUrl, model, apiKey, ...(this.envWindow !== undefined ? { contextWindow: this.envWindow } : {}) };
  }

  /** HOMED_TRANSCRIPTION_MODEL and HOMED_SPEECH_MODEL: the environment provider's audio models. */
  private envAudio(): Pick<ProviderView, "transcriptionModel" | "speechModel"> {
    const { HOMED_TRANSCRIPTION_MODEL: transcriptionModel, HOMED_SPEECH_MODEL: speechModel } = this.env;
    return { ...(transcriptionModel ? { transcriptionModel } : {}), ...(speechModel ? { speechModel } : {}) };
  }

  /**
   * The endpoint for one audio use: the active provider's when it has a model for it, else the
   * first provider that has one (a chat model from DeepSeek, voice from another provider), else
   * none — voice messages then stay untranscribed, and the console speaks with the browser's voice.
   */
  async audioTarget(use: AudioUse): Promise<AudioTarget | undefined> {
    const field = use === "transcription" ? "transcriptionModel" : "speechModel";
    const views = await this.list();
    const chosen = views.find((p) => p.active && p[field]) ?? views.find((p) => p[field]);
    if (!chosen) return undefined;
    const target = await this.target(chosen.id);
    return target && { baseUrl: target.baseUrl, apiKey: target.apiKey, model: chosen[field]!, ...(use === "speech" && chosen.speechVoice ? { voice: chosen.speechVoice } : {}) };
  }

  async list(): Promise<ProviderView[]> {
    const active = await this.activeId();
    const views: ProviderView[] = [];
    for (const p of await this.stored()) {
      views.push({ ...p, hasKey: await this.hasKey(p.id), active: p.id === active, source: "stored" });
    }
    const env = this.envProvider();
    if (env) {
      const window = env.contextWindow === undefined ? {} : { contextWindow: env.contextWindow };
      views.push({ id: "env", name: "From environment", baseUrl: env.baseUrl, model: env.model, ...window, ...this.envAudio(), hasKey: !!env.apiKey, active: active === "env", source: "environment" });
    }
    return views;
  }

  /** Adds (no id) or updates a provider; the first one added becomes active. */
  async save(input: ProviderInput, id?: string): Promise<ProviderView> {
    const all = await this.stored();
    const { apiKey, ...fields } = input;
    const providerId = id ?? randomUUID();
    const at = all.findIndex((p) => p.id === providerId);
    if (id && at === -1) throw new ProviderNotFound(id);
    if (at === -1) all.push({ ...fields, id: providerId });
    else all[at] = { ...fields, id: providerId };
    await writeSetting(this.client, "providers", all);
    if (apiKey !== undefined) {
      const name = keyName(providerId);
      if (apiKey === "") await deleteSecret(this.client, name);
      else await putSecret(this.client, name, this.secrets.seal(name, apiKey));
    }
    if ((await readSetting(this.client, "activeProvider")) === undefined) await writeSetting(this.client, "activeProvider", providerId);
    return (await this.list()).find((p) => p.id === providerId)!;
  }

  async activate(id: string): Promise<void> {
    if (id !== "env" && !(await this.stored()).some((p) => p.id === id)) throw new ProviderNotFound(id);
    await writeSetting(this.client, "activeProvider", id);
  }

  async remove(id: string): Promise<void> {
    const all = await this.stored();
    if (!all.some((p) => p.id === id)) throw new ProviderNotFound(id);
    await writeSetting(
      this.client,
      "providers",
      all.filter((p) => p.id !== id),
    );
    await deleteSecret(this.client, keyName(id));
    if ((await readSetting(this.client, "activeProvider")) === id) await deleteSetting(this.client, "activeProvider");
  }

  /** The provider for one id, with its key (internal). */
  async target(id: string): Promise<ProviderTarget | undefined> {
    if (id === "env") return this.envProvider();
    const p = (await this.stored()).find((s) => s.id === id);
    return (
      p && {
        id: p.id,
        baseUrl: p.baseUrl,
        model: p.model,
        apiKey: await this.key(p.id),
        ...(p.vision === false ? { vision: false } : {}),
        ...(p.contextWindow !== undefined ? { contextWindow: p.contextWindow } : {}),
      }
    );
  }

  /** The id of the provider turns use, found without opening any key (listing must not need them). */
  private async activeId(): Promise<string | undefined> {
    const id = await readSetting(this.client, "activeProvider");
    if (typeof id === "string" && (id === "env" ? this.envProvider() !== undefined : (await this.stored()).some((p) => p.id === id))) return id;
    return this.envProvider()?.id;
  }

  /** The provider turns use: the active stored one, else the environment's. */
  async active(): Promise<ProviderTarget | undefined> {
    const id = await this.activeId();
    return id === undefined ? undefined : await this.target(id);
  }
}

export class ProviderNotFound extends HomedError {
  constructor(id: string) {
    super("provider_not_found", `No provider with id ${id}`);
    this.name = "ProviderNotFound";
  }
}
