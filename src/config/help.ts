import { EXTRA_ENV, FLAGS } from "./flags.ts";

const COMMANDS: readonly [string, string][] = [
  ["(none)", "run the daemon: console and API on -addr, memory in -data"],
  ["doctor", "check the database, migrations, vector and full-text search, jieba, ONNX Runtime, data folder"],
  ["context", "render --budget N FILE: render a context dump (JSON array of events) under a token budget, as a request would carry it"],
  ["import", "FILE: import conversation history (JSON Lines, one message a line) into cold context"],
  ["recall", "\"query\" | --queries FILE: search cold context (words, character grams, vectors fused by RRF)"],
  ["embed", "TEXT | --image FILE [--json]: show the embedder in use (and why) and the vector it makes; --backfill: re-embed stored memory with it"],
  ["plugin", "run NAME: serve a built-in plugin (files, shell, notes, web_fetch, terminal) on stdin/stdout; the daemon starts these itself"],
  ["memory", "<recall|open|note|list|forget|injections|stats|doctor> [ARG | JSON]: the memory tools on -data's database"],
  ["mcp", "serve the memory tools as an MCP stdio server (for IDE agents), on -data's database"],
  ["chat", "talk to a running daemon from the terminal (-addr, -data or -token, -partner)"],
  ["token", "reset -data DIR: write a new admin token (the console's login), print it and end every console login; restart a running daemon after"],
  ["version", "print the version"],
  ["help", "show this help"],
];

export function helpText(version: string): string {
  const lines = [
    `homed ${version} — a self-hosted agent kernel with long-term memory`,
    "",
    "Usage: homed [command] [flags]",
    "",
    "Commands:",
    ...COMMANDS.map(([name, help]) => `  ${name.padEnd(10)} ${help}`),
    "",
    "Flags (also --flag and -flag=value):",
  ];
  for (const f of FLAGS) {
    const head = `  -${f.name}${f.value ? ` ${f.value}` : ""}`;
    lines.push(`${head.padEnd(24)} ${f.help}`);
    const extras = [f.default ? `default: ${f.default}` : "", f.env ? `env: ${f.env}` : ""].filter(Boolean);
    if (extras.length) lines.push(`${"".padEnd(24)} ${extras.join("; ")}`);
  }
  lines.push("", "Environment:");
  for (const f of FLAGS) if (f.env) lines.push(`  ${f.env.padEnd(22)} same as -${f.name}`);
  for (const e of EXTRA_ENV) lines.push(`  ${e.name.padEnd(22)} ${e.help}`);
  lines.push(
    "",
    "Settings file: <data>/homed.json (optional): context budget and tool rounds (\"kernel\"), memory thresholds (\"injection\", \"cooling\") and",
    "plugins (\"plugins\": {\"enabled\": [...]}; shell, terminal, rss, calendar, browser and code are off unless enabled); checked at start.",
    "",
    "Example: homed -data ~/homed-data   then open http://127.0.0.1:8080",
    "",
  );
  return lines.join("\n");
}
