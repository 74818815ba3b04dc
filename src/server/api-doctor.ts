/** `/api/doctor`: the same checks as `homed doctor`, run on demand from the console. */
import { Hono } from "hono";
import { runDoctor, type CheckResult, type DoctorOptions } from "../doctor/index.ts";

/** `POST /api/doctor`: every check's result, and whether all passed. */
export type DoctorAnswer = { ok: boolean; ms: number; results: CheckResult[] };

export function doctorRoutes(options: DoctorOptions): Hono {
  const app = new Hono();
  // POST: a deep check opens the database, loads ONNX Runtime and writes a probe file.
  app.post("/", async (c) => {
    const results: CheckResult[] = [];
    const started = performance.now();
    const ok = await runDoctor(options, (r) => results.push(r));
    return c.json<DoctorAnswer>({ ok, ms: Math.round(performance.now() - started), results });
  });
  return app;
}
