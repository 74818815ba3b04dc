/**
 * `homed context render --budget N FILE`: renders a context dump under a budget, offline —
 * the tool for seeing what a real session would send. stdout gets the rendered OpenAI-format
 * messages as JSON; stderr gets one audit line computed from the output itself.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { UsageError, type CommandIo } from "../config/index.ts";
import { loadTokenizer } from "../text/index.ts";
import { parseContextDump, toRenderable, ContextDumpError } from "./dump.ts";
import { renderUnderBudget } from "./render.ts";
import { formatSequenceReport, inspectSequence } from "./sequence.ts";

export const CONTEXT_USAGE = "homed context render --budget N FILE";

const BudgetSchema = z.coerce.number().int().positive();

/** `rest`: the words after `context`; `budgetFlag`: the value of -budget, if given. */
export async function runContextCommand(rest: readonly string[], budgetFlag: string | true | undefined, io: Pick<CommandIo, "stdout" | "stderr">): Promise<number> {
  await loadTokenizer();
  const [sub, file, ...extra] = rest;
  if (sub !== "render") throw new UsageError(`unknown context command "${sub ?? ""}" (usage: ${CONTEXT_USAGE})`);
  if (!file) throw new UsageError(`missing FILE (usage: ${CONTEXT_USAGE})`);
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (usage: ${CONTEXT_USAGE})`);
  if (budgetFlag === undefined) throw new UsageError(`missing --budget (usage: ${CONTEXT_USAGE})`);
  const budget = BudgetSchema.safeParse(budgetFlag);
  if (!budget.success) throw new UsageError(`invalid --budget "${String(budgetFlag)}": a positive whole number of tokens`);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ContextDumpError(`Cannot read context dump ${file}: ${(error as Error).message}`, { cause: error });
  }
  const events = parseContextDump(text, file);
  const result = renderUnderBudget(toRenderable(events), budget.data);
  io.stdout(`${JSON.stringify(result.messages, null, 2)}\n`);
  io.stderr(`${formatSequenceReport(inspectSequence(result.messages))}\n`);
  return 0;
}
