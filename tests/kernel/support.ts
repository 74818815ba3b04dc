/**
 * A kernel on a real libSQL file, talking to a scripted model: in process by default (the
 * kernel's model seam, src/llm/scripted-chat.ts), or over loopback HTTP to the scripted provider
 * (`{ overHttp: true }`) for the tests that are about the whole path. Either way each request is
 * recorded and checked by the providers' tool-call rule (danglingToolCall, written apart from
 * homed's own guard).
 */
import { join } from "node:path";
import { Kernel, type KernelOptions } from "../../src/kernel/index.ts";
import { ScriptedChat } from "../../src/llm/index.ts";
import { openStore, SecretBox, type Store } from "../../src/store/index.ts";
import { danglingToolCall, startScriptedProvider, type Script } from "../support/scripted-provider.ts";
import { tempDir } from "../support/temp-dir.ts";

/** What the tests read of the model's side: the requests it got, the ones it refused. */
export type ScriptedModel = { requests: { body: any }[]; sequenceErrors: string[]; url: string };

export type Harness = { kernel: Kernel; store: Store; provider: ScriptedModel; logs: string[]; close(): Promise<void> };

/** No server listens here: an in-process harness's chat never leaves the process, and its model list (the context window, src/llm/reported-window.ts) is refused at once. */
const UNUSED_URL = "http://127.0.0.1:9/v1";

export async function kernelHarness(script: Script, options: Partial<KernelOptions> = {}, how: { overHttp?: boolean } = {}): Promise<Harness> {
  const server = how.overHttp ? await startScriptedProvider(script) : undefined;
  const inProcess = server ? undefined : new ScriptedChat(script, { check: danglingToolCall });
  const dir = tempDir("homed-kernel-");
  const store = await openStore({ url: `file:${join(dir.path, "homed.db")}` });
  const logs: string[] = [];
  const log = { info: (l: string) => logs.push(l), warn: (l: string) => logs.push(l) };
  const kernel = new Kernel({
    client: store.client,
    secrets: SecretBox.ephemeral(),
    log,
    env: { HOMED_BASE_URL: server?.url ?? UNUSED_URL, HOMED_MODEL: "scripted-model" },
    sequenceGuard: "throw",
    ...(inProcess ? { chatModel: inProcess.factory } : {}),
    ...options,
  });
  kernel.tools.register({
    name: "echo",
    description: "Returns its arguments",
    parameters: { type: "object", properties: { text: { type: "string" } } },
    run: async (args) => JSON.stringify({ echoed: args }),
  });
  return {
    kernel,
    store,
    provider: server ?? { requests: inProcess!.requests, sequenceErrors: inProcess!.sequenceErrors, url: UNUSED_URL },
    logs,
    async close() {
      await server?.close();
      store.close();
      dir.remove();
    },
  };
}

export const call = (id: string, text = "x") => ({ id, name: "echo", arguments: JSON.stringify({ text }) });
