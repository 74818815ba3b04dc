/**
 * `homed --help` (every command, every flag) and `homed COMMAND --help` / `homed help COMMAND`
 * (that command's usage and the flags it reads), made from the commands' own tables, so help
 * can never drift from what is accepted.
 */
import { EXTRA_ENV, FLAGS, type FlagSpec } from "../config/index.ts";
import type { Command } from "./command.ts";

const COLUMN = 24;

function flagLines(flags: readonly FlagSpec[]): string[] {
  const lines: string[] = [];
  for (const f of flags) {
    const head = `  -${f.name}${f.value ? ` ${f.value}` : ""}`;
    lines.push(`${head.padEnd(COLUMN)} ${f.help}`);
    const extras = [f.default ? `default: ${f.default}` : "", f.env ? `env: ${f.env}` : ""].filter(Boolean);
    if (extras.length) lines.push(`${"".padEnd(COLUMN)} ${extras.join("; ")}`);
  }
  return lines;
}

/** The flags of the whole command line: the shared ones, then each command's own. */
export const allFlags = (commands: readonly Command[]): FlagSpec[] => [...FLAGS, ...commands.flatMap((c) => c.flags)];

export function helpText(version: string, commands: readonly Command[]): string {
  const flags = allFlags(commands);
  const lines = [
    `homed ${version} — a self-hosted agent kernel with long-term memory`,
    "",
    "Usage: homed [command] [flags]      homed COMMAND --help: that command's usage",
    "",
    "Commands:",
    ...commands.map((c) => `  ${(c.name === "serve" ? "(none)" : c.name).padEnd(10)} ${c.summary}`),
    "",
    "Flags (also --flag and -flag=value):",
    ...flagLines(flags),
    "",
    "Environment:",
  ];
  for (const f of flags) if (f.env) lines.push(`  ${f.env.padEnd(22)} same as -${f.name}`);
  for (const e of EXTRA_ENV) lines.push(`  ${e.name.padEnd(22)} ${e.help}`);
  lines.push(
    "",
    'Settings file: <data>/homed.json (optional): context budget and tool rounds ("kernel"), memory thresholds ("injection", "cooling"), recall\'s channel weights ("fusion") and',
    'plugins ("plugins": {"enabled": [...]}; shell and terminal are off unless enabled), the log\'s and <data>/audit.log\'s size caps ("log"); checked at start.',
    "",
    "Example: homed -data ~/homed-data   then open http://127.0.0.1:8080",
    "",
  );
  return lines.join("\n");
}

/** One command's usage: how to call it, what it does, its own flags; the shared ones by name. */
export function commandHelp(command: Command): string {
  const lines = ["Usage:", ...command.usage.map((u) => `  ${u}`), "", command.summary];
  if (command.description) lines.push(command.description);
  if (command.flags.length) lines.push("", "Flags:", ...flagLines(command.flags));
  lines.push("", "Shared flags (-data, -db, -log-level, -models, -embed-*...): see homed --help", "");
  return lines.join("\n");
}
