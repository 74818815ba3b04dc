/** Parses a JSON request body with a zod schema; any problem is a 400 `{error, message}`. */
import type { Context } from "hono";
import type { z } from "zod";
import { HomedError } from "../errors/index.ts";

export async function parseBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let json: unknown;
  try {
    json = await c.req.json();
  } catch (error) {
    throw new HomedError("invalid_json", "The request body is not valid JSON", { cause: error });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
    throw new HomedError("invalid_request", `${where}${issue.message}`, issue.path.length ? { param: issue.path.join(".") } : undefined);
  }
  return parsed.data;
}
