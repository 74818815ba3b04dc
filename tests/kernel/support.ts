/** A kernel on a real libSQL file, talking to a scripted provider on loopback. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kernel, type KernelOptions } from "../../src/kernel/index.ts";
import { openStore, SecretBox, type Store } from "../../src/store/index.ts";
import { startScriptedProvider, type Script, type ScriptedProvider } from "../support/scripted-provider.ts";

export type Harness = { kernel: Kernel; store: Store; provider: ScriptedProvider; logs: string[]; close(): Promise<void> };

export async function kernelHarness(script: Script, options: Partial<KernelOptions> = {}): Promise<Harness> {
  const provider = await startScriptedProvider(script);
  const dir = mkdtempSync(join(tmpdir(), "homed-kernel-"));
  const store = await openStore({ url: `file:${join(dir, "homed.db")}` });
  const logs: string[] = [];
  const log = { info: (l: string) => logs.push(l), warn: (l: string) => logs.push(l) };
  const kernel = new Kernel({
    client: store.client,
    secrets: SecretBox.ephemeral(),
    log,
    env: { HOMED_BASE_URL: provider.url, HOMED_MODEL: "scripted-model" },
    sequenceGuard: "throw",
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
    provider,
    logs,
    async close() {
      await provider.close();
      store.close();
    },
  };
}

export const call = (id: string, text = "x") => ({ id, name: "echo", arguments: JSON.stringify({ text }) });
