/**
 * `/api/models`: the console's side of `homed model pull`. `GET` lists the catalog (built-in and
 * homed.json's) with what is installed and the pull under way or last finished; `POST /pull
 * {name}` starts a pull in the background — one at a time (409 pull_in_progress) — whose
 * progress `GET` reports (file i of n, bytes), as the command line shows it. The files come from
 * where `homed model pull` would take them (the daemon's HOMED_MODELS_MIRROR / HF_ENDPOINT, or
 * models.mirror in homed.json). A pulled model is used from the next start, as from the CLI.
 */
import { Hono } from "hono";
import { z } from "zod";
import { catalogOf, DownloadError, isInstalled, modelSource, pullModel, readModelsSection, type ModelEntry, type SourceVia } from "../embed/index.ts";
import { HomedError } from "../errors/index.ts";
import type { Logger } from "../log/index.ts";
import { auditBy } from "./auth.ts";

export type ModelsSetup = { dataDir: string; modelsDir: string; systemModelsDir?: string; mirror?: string };

export type ModelPullState = {
  name: string;
  state: "running" | "done" | "failed";
  /** The file downloading now, its place among the model's files, and its bytes. */
  file?: string;
  fileIndex: number;
  files: number;
  received: number;
  total?: number;
  /** Where it went (done) or what went wrong (failed). */
  message?: string;
};

export type ModelRow = Pick<ModelEntry, "name" | "kind" | "about" | "size" | "languages" | "licence" | "dimension"> & { installed: boolean };
/** Where pulls take the files from, and which setting said so (the console words it). */
export type ModelCatalogAnswer = { models: ModelRow[]; source: { url: string; via: SourceVia }; pull: ModelPullState | null };

const PullBodySchema = z.object({ name: z.string().min(1).max(200) }).strict();

export function modelsRoutes(setup: ModelsSetup, log: Pick<Logger, "info" | "audit">): Hono {
  const app = new Hono();
  let pull: ModelPullState | null = null;
  const source = () => modelSource({ envMirror: setup.mirror, section: readModelsSection(setup.dataDir) });

  app.get("/", (c) => {
    const from = source();
    const models = catalogOf(readModelsSection(setup.dataDir)).map((e) => ({
      name: e.name,
      kind: e.kind,
      about: e.about,
      size: e.size,
      languages: e.languages,
      licence: e.licence,
      dimension: e.dimension,
      installed: isInstalled(e, setup),
    }));
    return c.json<ModelCatalogAnswer>({ models, source: { url: from.kind === "hub" ? from.endpoint : from.base, via: from.via }, pull });
  });

  app.post("/pull", async (c) => {
    const body = PullBodySchema.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success) throw new HomedError("invalid_request", `${body.error.issues[0]!.path.join(".") || "body"}: ${body.error.issues[0]!.message}`);
    if (pull?.state === "running") throw new HomedError("pull_in_progress", `${pull.name} is being pulled; wait for it to finish`);
    const entry = catalogOf(readModelsSection(setup.dataDir)).find((e) => e.name === body.data.name);
    if (!entry) throw new HomedError("not_found", `No model ${body.data.name} in the catalog`);
    const state: ModelPullState = { name: entry.name, state: "running", fileIndex: 0, files: entry.files.length, received: 0 };
    pull = state;
    log.audit({ event: "model_pull", ...auditBy(c), outcome: "ok", detail: `console started pulling the model ${entry.name}` });
    // The pull outlives the request: its progress is read with GET.
    void pullModel(entry, source(), setup.modelsDir, {
      onFile({ save, index }) {
        Object.assign(state, { file: save, fileIndex: index, received: 0, total: undefined });
      },
      onProgress(_file, { received, total }) {
        Object.assign(state, { received, total });
      },
    }).then(
      (dir) => {
        Object.assign(state, { state: "done", fileIndex: state.files, message: dir });
        log.info(`model ${entry.name} pulled into ${dir}; used from the next start`);
      },
      (error) => {
        const message = error instanceof DownloadError ? error.message : `Cannot pull ${entry.name}: ${(error as Error).message}`;
        Object.assign(state, { state: "failed", message });
        log.info(`model pull of ${entry.name} failed: ${message}`);
      },
    );
    return c.json<ModelPullState>(state, 202);
  });
  return app;
}
