/**
 * The command-line flags: one table that both the parser and `--help` read, so help can never
 * drift from what is accepted. Flags are Go-style (`-data DIR`), and `--data DIR`,
 * `-data=DIR` are accepted too; no well-kept parser takes single-dash long flags without
 * treating them as bundles of short ones, hence this small hand-written one.
 */
import { HomedError } from "../errors/index.ts";

export type FlagSpec = {
  name: string;
  /** Placeholder shown in help; absent for boolean flags. */
  value?: string;
  env?: string;
  default: string;
  help: string;
};

/**
 * The flags every command shares (settings: where the data is, the database, the embedder...)
 * and -json, which two commands read.
 * A command's own flags are in its file in src/cli/commands/; main.ts parses with both.
 */
export const FLAGS: readonly FlagSpec[] = [
  { name: "data", value: "DIR", env: "HOMED_DATA", default: "$XDG_DATA_HOME/homed (~/.local/share/homed)", help: "data folder: database, logs, admin token, models (created if missing)" },
  { name: "addr", value: "HOST:PORT", env: "HOMED_ADDR", default: "127.0.0.1:8080", help: "address the console and API listen on (port 0 picks a free port)" },
  {
    name: "db",
    value: "URL",
    env: "HOMED_DB",
    default: "file:<data>/homed.db",
    help: "database: an embedded libSQL file, or a libSQL server: libsql:// (TLS, Turso), http:// or libsql://…?tls=0 (no TLS, e.g. sqld on loopback)",
  },
  {
    name: "sync-url",
    value: "URL",
    env: "HOMED_DB_SYNC_URL",
    default: "",
    help: "with -db file:PATH: keep that file an embedded replica of this libSQL server (reads local, writes go to the server)",
  },
  { name: "log-level", value: "LEVEL", env: "HOMED_LOG_LEVEL", default: "info", help: "debug, info, warn or error" },
  { name: "json", default: "", help: "`homed recall`, `homed embed`: print JSON instead of text" },
  { name: "models", value: "DIR", env: "HOMED_MODELS", default: "<data>/models", help: "model folder: Chinese-CLIP's ONNX export in DIR/chinese-clip-vit-b16-onnx/ (or in DIR itself)" },
  { name: "embed-threads", value: "N", env: "HOMED_EMBED_THREADS", default: "1", help: "ONNX Runtime threads for the in-process embedder (only 1 works under Bun today; more is refused)" },
  { name: "embed-url", value: "URL", env: "HOMED_EMBED_URL", default: "", help: "use an OpenAI-compatible /embeddings endpoint instead, e.g. http://127.0.0.1:11434/v1 (needs -embed-model)" },
  { name: "embed-model", value: "NAME", env: "HOMED_EMBED_MODEL", default: "", help: "model name sent to -embed-url" },
  {
    name: "embed-dim",
    value: "N",
    env: "HOMED_EMBED_DIM",
    default: "the model's own",
    help: "ask -embed-model for vectors of N dimensions (OpenAI's `dimensions` parameter; the server must support it); any width is stored",
  },
  { name: "embed-key-file", value: "FILE", env: "HOMED_EMBED_KEY_FILE", default: "", help: "file holding the API key for -embed-url (else HOMED_EMBED_API_KEY)" },
  { name: "embed-timeout", value: "MS", env: "HOMED_EMBED_TIMEOUT_MS", default: "1200", help: "time budget of a query embedding; after it recall goes on without vectors" },
  { name: "help", default: "", help: "show this help (or, after a command, that command's) and exit" },
  { name: "version", default: "", help: "print the version and exit" },
];

/** Environment variables read that belong to no flag. */
export const EXTRA_ENV: readonly { name: string; help: string }[] = [
  { name: "HOMED_DB_AUTH_TOKEN", help: "auth token for a remote libSQL server given with -db" },
  { name: "HOMED_BASE_URL", help: "a first model provider (OpenAI-compatible base URL, e.g. https://api.deepseek.com/v1), used until one is set in the console" },
  { name: "HOMED_MODEL", help: "the model of that provider, e.g. deepseek-chat" },
  { name: "HOMED_API_KEY", help: "the API key of that provider" },
  {
    name: "HOMED_CONTEXT_WINDOW",
    help: "that provider's context window in tokens, when neither the provider's /models list nor homed's table of well-known models gives it, or gives it wrong (recall injects more memory into a larger window)",
  },
  { name: "HOMED_TRANSCRIPTION_MODEL", help: "that provider's model for /audio/transcriptions (e.g. whisper-1): voice messages are heard as their transcript" },
  { name: "HOMED_SPEECH_MODEL", help: "that provider's model for /audio/speech (e.g. tts-1): the console speaks answers with it" },
  { name: "HOMED_ALLOWED_HOSTS", help: "other Host names homed answers, comma-separated (a reverse proxy's name); on loopback only localhost and 127.0.0.1 are answered" },
  { name: "HOMED_CORS_ORIGINS", help: "origins whose web pages may call /v1, /mcp and A2A with a key, comma-separated, or none (default *, any; the console's /api never)" },
  { name: "XDG_DATA_HOME", help: "base of the default data folder" },
  { name: "HOMED_EMBED_API_KEY", help: "API key for -embed-url (a -embed-key-file wins)" },
  { name: "HOMED_MODELS_MIRROR", help: "a Hugging Face mirror `homed model pull` fetches catalog models from, e.g. https://hf-mirror.com (HF_ENDPOINT is read too)" },
  { name: "HOMED_SYSTEM_MODELS", help: "where packaged models (homed-models-NAME) are found after -models (default /usr/lib/homed/models)" },
];

export class UsageError extends HomedError {
  constructor(message: string) {
    super("usage", message);
    this.name = "UsageError";
  }
}

export type ParsedArgs = {
  /** Words that are not flags (the command and its arguments). */
  positionals: string[];
  flags: Map<string, string | true>;
};

const ALIASES: Record<string, string> = { h: "help", v: "version" };

export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[] = FLAGS): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const rawName = eq === -1 ? body : body.slice(0, eq);
    const name = ALIASES[rawName] ?? rawName;
    const spec = byName.get(name);
    if (!spec) throw new UsageError(`unknown flag ${arg} (see homed --help)`);
    if (!spec.value) {
      if (eq !== -1) throw new UsageError(`flag -${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = body.slice(eq + 1);
    else value = argv[++i];
    if (value === undefined) throw new UsageError(`flag -${name} needs a value: -${name} ${spec.value}`);
    flags.set(name, value);
  }
  return { positionals, flags };
}
