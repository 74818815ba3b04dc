/** Every `homed` command, in the order `homed --help` lists them. */
import type { Command } from "../command.ts";
import { acpCommand } from "./acp.ts";
import { chatCommand } from "./chat.ts";
import { contextCommand } from "./context.ts";
import { doctorCommand } from "./doctor.ts";
import { embedCommand } from "./embed.ts";
import { modelCommand } from "./model.ts";
import { importCommand } from "./import.ts";
import { mcpCommand } from "./mcp.ts";
import { memoryCommand } from "./memory.ts";
import { pluginCommand } from "./plugin.ts";
import { recallCommand } from "./recall.ts";
import { serveCommand } from "./serve.ts";
import { tokenCommand } from "./token.ts";
import { keyCommand } from "./key.ts";
import { helpCommand } from "./help.ts";
import { versionCommand } from "./version.ts";

export const COMMANDS: readonly Command[] = [
  serveCommand,
  doctorCommand,
  contextCommand,
  importCommand,
  recallCommand,
  embedCommand,
  modelCommand,
  pluginCommand,
  memoryCommand,
  mcpCommand,
  chatCommand,
  acpCommand,
  tokenCommand,
  keyCommand,
  versionCommand,
  helpCommand,
];
