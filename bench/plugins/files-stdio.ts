/** The files plugin with every result over stdio (no bulk transfer): the baseline of bench/plugins. */
import { filesPlugin } from "../../plugins/files/index.ts";
import { servePlugin } from "../../plugins/sdk/index.ts";

await servePlugin(filesPlugin, { input: process.stdin, output: process.stdout, env: process.env, maxFrameBytes: 1 << 30, bulkMinBytes: Infinity });
