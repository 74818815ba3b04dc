/**
 * The models `/v1` serves: `homed` (whichever provider is active) and each configured provider
 * under its model's name, so an OpenAI client's model picker chooses among them. A model name
 * two providers share is listed once plainly (the active provider's, else the first) and then
 * as `<model>@<provider id>`, so every id names exactly one provider.
 */
import { HomedError } from "../errors/index.ts";
import type { ProviderStore } from "../kernel/index.ts";

export const HOMED_MODEL_ID = "homed";

/** A model as OpenAI's `/v1/models` lists it, plus the provider it selects (none: the active one). */
export type ServedModel = { id: string; object: "model"; created: number; owned_by: string; provider?: string };

export async function servedModels(providers: ProviderStore): Promise<ServedModel[]> {
  const models: ServedModel[] = [{ id: HOMED_MODEL_ID, object: "model", created: 0, owned_by: "homed" }];
  const views = (await providers.list()).sort((a, b) => Number(b.active) - Number(a.active));
  for (const view of views) {
    const id = models.some((m) => m.id === view.model) ? `${view.model}@${view.id}` : view.model;
    models.push({ id, object: "model", created: 0, owned_by: view.name, provider: view.id });
  }
  return models;
}

/** The model of an id, or a 404 `model_not_found` naming where the list is. */
export async function servedModel(providers: ProviderStore, id: string): Promise<ServedModel> {
  const found = (await servedModels(providers)).find((m) => m.id === id);
  if (!found) {
    throw new HomedError("model_not_found", `The model '${id}' does not exist here: GET /v1/models lists the ones homed serves ('${HOMED_MODEL_ID}' is the active provider)`, {
      param: "model",
    });
  }
  return found;
}

/** The public view of a model (without the provider it selects). */
export const modelView = ({ provider: _, ...model }: ServedModel) => model;
