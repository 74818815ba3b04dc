/**
 * The worst server a "the daemon stays responsive" test accepts, run beside homed as the measured
 * baseline (held-loop.ts): it answers `/healthz` through the runtime's own server (src/runtime, as
 * homed does), each answer after holding its event loop for HOLD_MS of CPU time. CPU time, not
 * wall time: on a loaded machine the OS stretches a held stretch exactly as it stretches homed's
 * work. Held per answer rather than between answers: a loop that holds and then waits for a timer
 * to give I/O its turn answers every check that comes during the wait at once (under Deno a
 * chain of setTimeout(0) waits 4 ms a time: the median answer was 0.06 ms, not 20).
 *
 * Usage: held-loop-server.ts HOLD_MS — says "listening on http://127.0.0.1:PORT" on stderr.
 */
import { cpuUsage } from "node:process";
import { serve } from "../../src/runtime/index.ts";

const holdMs = Number(process.argv[2]);
if (!(holdMs > 0)) throw new Error(`Usage: held-loop-server.ts HOLD_MS (got ${process.argv[2]})`);

const cpuMs = () => {
  const used = cpuUsage();
  return (used.user + used.system) / 1000;
};

const server = serve("127.0.0.1", 0, () => {
  const start = cpuMs();
  while (cpuMs() - start < holdMs);
  return Response.json({ ok: true });
});
console.error(`listening on http://127.0.0.1:${server.port}`);
