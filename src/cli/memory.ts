/**
 * `homed memory <tool> [ARG | JSON]`: the memory tools from the command line, on the data
 * folder's database. A single plain argument fills the tool's main field (recall: query;
 * open, forget: id; note: text); a JSON object gives all arguments. Prints the result as JSON.
 */
import { UsageError, type Settings } from "../config/index.ts";
import { MEMORY_TOOLS, openDataEmbedder, openDataStore, OWNER, runMemoryTool } from "../memory/index.ts";

/** The tools that change memory: they say when a daemon serves the folder (see openDataStore). */
const WRITES = new Set(["memory_note", "memory_forget"]);

const MAIN_FIELD: Record<string, string> = { memory_recall: "query", memory_open: "id", memory_forget: "id", memory_note: "text" };

export const MEMORY_USAGE = `homed memory <${MEMORY_TOOLS.map((t) => t.name.replace(/^memory_/, "")).join("|")}> [ARG | JSON]`;

export async function runMemoryCommand(rest: readonly string[], settings: Settings, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  const [name, arg, extra] = rest;
  if (!name || extra !== undefined) throw new UsageError(`usage: ${MEMORY_USAGE}`);
  const tool = MEMORY_TOOLS.find((t) => t.name === name || t.name === `memory_${name}`);
  if (!tool) throw new UsageError(`unknown memory tool "${name}": usage: ${MEMORY_USAGE}`);
  let args: unknown = {};
  if (arg !== undefined) {
    if (arg.trim().startsWith("{")) {
      try {
        args = JSON.parse(arg);
      } catch {
        throw new UsageError(`the arguments of ${tool.name} are not valid JSON: ${arg}`);
      }
    } else {
      const field = MAIN_FIELD[tool.name];
      if (!field) throw new UsageError(`${tool.name} takes no plain argument; give a JSON object`);
      args = { [field]: arg };
    }
  }
  const store = await openDataStore(settings, WRITES.has(tool.name) ? err : undefined);
  try {
    const active = await openDataEmbedder(settings);
    const embedder = active.kind === "fallback" ? undefined : active.embedder;
    out(`${JSON.stringify(await runMemoryTool(tool.name, args, { client: store.client, embedder, access: OWNER, log: (line) => err(`${line}\n`) }), null, 2)}\n`);
    return 0;
  } finally {
    store.close();
  }
}
