/**
 * Bounded work in the compiled binary: the pieces, the event loop's turns between them and the
 * caps are in the bundle too, so a 200,000-character unbroken message is stored and answered by
 * the binary alone in an empty folder while `/healthz` keeps answering.
 */
import { after, describe, test } from "node:test";
import { join } from "node:path";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { assertCalmWhilePasting } from "../support/health-sampler.ts";
import { startScriptedProvider, type ScriptedProvider } from "../support/scripted-provider.ts";
import { BINARY_SKIP, isolatedBinary } from "./build-binary.ts";

describe("the compiled binary and a long message", { skip: BINARY_SKIP }, () => {
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  after(async () => {
    await daemon?.stop();
    await provider?.close();
  });

  test("/healthz stays under 50 ms p99 while a 200,000-character unbroken message is stored and answered", async () => {
    const { dir, bin } = isolatedBinary();
    provider = await startScriptedProvider(() => ({ content: "received" }));
    daemon = await startApiDaemon(join(dir, "data"), provider.url, [bin]);
    await assertCalmWhilePasting(daemon, 10);
  });
});
