/**
 * The measured baseline of the "the daemon stays responsive" tests: a server that holds its event
 * loop for `holdMs` of CPU time before each answer (held-loop-server.ts), started beside the
 * daemon and asked `/healthz` back to back at the same time as the daemon. Its answers take what
 * `holdMs` of work takes at that moment: about `holdMs` with a core free, longer as the OS shares
 * the cores out (a loaded CI machine, several agents on two cores). A daemon asked to stay under
 * a latency budget is asked to do no worse than this server holding the budget (its p90: the
 * daemon's own tail is the OS's too): a stalled or swamped event loop still fails on any machine.
 */
import { fileURLToPath } from "node:url";
import { scriptCommand, startDaemon, type Daemon } from "./process.ts";

const HELD_LOOP_SERVER = fileURLToPath(new URL("./held-loop-server.ts", import.meta.url));

export function startHeldLoop(holdMs: number): Promise<Daemon> {
  return startDaemon([...scriptCommand(HELD_LOOP_SERVER), String(holdMs)]);
}
