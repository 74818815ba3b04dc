/** The Telegram channel as an external plugin: `bun plugins/telegram/main.ts`, named in `<data>/plugins/telegram/plugin.json`. */
import { serveStdio } from "../sdk/index.ts";
import { telegramChannel } from "./index.ts";

await serveStdio(telegramChannel);
