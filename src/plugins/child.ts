/**
 * One running plugin process: its pipes as a transport, its stderr in its log ring, and a stop
 * that escalates (stdin closed, then SIGTERM, then SIGKILL). The child leads its own process
 * group, and its whole process tree — including children that left the group with `setsid` — is
 * held to its memory and CPU limits and ended with it (process-tree-guard.ts), so nothing is
 * orphaned. What it sends is held to its intake limits (intake.ts), so a plugin that floods slows
 * itself, not the kernel.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { DEFAULT_INTAKE_LIMITS, DropTally, LimitedTransport, type IntakeLimits } from "./intake.ts";
import type { LogRing } from "./log-ring.ts";
import { McpClient } from "./mcp-client.ts";
import type { PluginConnection } from "./connection.ts";
import { ProcessTreeGuard, TREE_MARKER_ENV } from "./process-tree-guard.ts";
import { childEnvironment, type PluginSpec } from "./spec.ts";
import { Peer, StreamTransport } from "../protocol/index.ts";
import { countLines, pace, TokenBucket } from "./token-bucket.ts";

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type ChildOptions = {
  log: LogRing;
  maxFrameBytes?: number;
  /** Environment the allow-list is taken from (the kernel's own by default). */
  parentEnv?: Record<string, string | undefined>;
  limits?: IntakeLimits;
  /** Where reports of dropped frames and lines go besides the plugin's log (the daemon log). */
  report?: (line: string) => void;
  /** How often the process tree is measured against the spec's limits (SAMPLE_INTERVAL_MS by default). */
  sampleIntervalMs?: number;
};

/** What the intake limits dropped so far. */
export type Dropped = { messages: number; frameErrors: number; logLines: number };

export class PluginChild implements PluginConnection {
  readonly local = true;
  readonly peer: Peer;
  readonly client: McpClient;
  readonly exited: Promise<Exit>;
  private exitInfo?: Exit;
  private readonly limits: IntakeLimits;
  private readonly tallies: Record<keyof Dropped, DropTally>;
  private readonly guard?: ProcessTreeGuard;
  private overLimit?: string;

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, Readable>,
    readonly spec: PluginSpec,
    private readonly log: LogRing,
    options: ChildOptions,
    marker: string,
  ) {
    const limits = (this.limits = options.limits ?? DEFAULT_INTAKE_LIMITS);
    const say = (line: string) => {
      log.note(line);
      options.report?.(line);
    };
    this.tallies = {
      messages: new DropTally("notifications and requests", `over the limit of ${limits.unsolicited} a second`, say),
      frameErrors: new DropTally("reports of unreadable frames", `over the limit of ${limits.frameErrors} a second`, say),
      logLines: new DropTally("stderr lines", `over the limit of ${limits.logLines} lines a second`, say),
    };
    const stream = new StreamTransport(child.stdout, child.stdin, options.maxFrameBytes ? { maxFrameBytes: options.maxFrameBytes } : {});
    const transport = new LimitedTransport(stream, { perSecond: limits.unsolicited, dropped: this.tallies.messages }, { perSecond: limits.frameErrors, dropped: this.tallies.frameErrors });
    this.peer = new Peer(transport, { defaultTimeoutMs: spec.timeoutMs, log: (line) => log.note(line) });
    this.client = new McpClient(this.peer, { timeoutMs: spec.timeoutMs });
    child.stderr.setEncoding("utf8");
    const logLines = new TokenBucket(limits.logLines, limits.logLines);
    child.stderr.on("data", (text: string) => {
      const refused = log.write(text, () => logLines.take());
      if (refused > 0) this.tallies.logLines.add(refused);
    });
    pace(child.stderr, [{ bucket: new TokenBucket(limits.stderrBytes, limits.stderrBytes), cost: (chunk) => chunk.length }]);
    if (child.pid !== undefined) {
      this.guard = new ProcessTreeGuard(child.pid, marker, spec.limits, (reason) => {
        this.overLimit = reason;
        say(reason);
      });
      this.guard.start(options.sampleIntervalMs);
    }
    this.exited = new Promise((resolve) => {
      child.on("error", (error) => {
        log.note(`Cannot start ${spec.command}: ${error.message}`);
        this.finish({ code: null, signal: null }, resolve);
      });
      child.on("exit", (code, signal) => this.finish({ code, signal }, resolve));
    });
  }

  static spawn(spec: PluginSpec, options: ChildOptions): PluginChild {
    if (!spec.command) throw new Error(`plugin ${spec.name} names no command`);
    const marker = ProcessTreeGuard.newMarker(spec.name);
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...childEnvironment(spec, options.parentEnv ?? process.env), [TREE_MARKER_ENV]: marker },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    return new PluginChild(child, spec, options.log, options, marker);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get exit(): Exit | undefined {
    return this.exitInfo;
  }

  /** Why the plugin was killed for going over its memory or CPU limit; undefined when it was not. */
  get killedFor(): string | undefined {
    return this.overLimit;
  }

  get dropped(): Dropped {
    return { messages: this.tallies.messages.count, frameErrors: this.tallies.frameErrors.count, logLines: this.tallies.logLines.count };
  }

  /** Starts reading frames and negotiates the protocol. */
  async connect(): Promise<void> {
    await this.peer.start();
    // Paced only once the transport listens: a "data" listener starts the flow, and frames
    // that flowed before the transport's listener would be lost.
    pace(this.child.stdout, [
      { bucket: new TokenBucket(this.limits.frames, this.limits.frames), cost: countLines },
      { bucket: new TokenBucket(this.limits.stdoutBytes, this.limits.stdoutBurstBytes), cost: (chunk) => chunk.length },
    ]);
    await this.client.connect();
  }

  /** Asks the plugin to go (stdin closed), then insists. Resolves once the process is gone. */
  async stop(graceMs = 2000): Promise<Exit> {
    if (this.exitInfo) return this.exitInfo;
    this.guard?.remember();
    await this.peer.close();
    if (await this.exitsWithin(graceMs)) return this.exitInfo!;
    this.log.note(`no exit ${graceMs} ms after stdin closed: SIGTERM`);
    this.signalGroup("SIGTERM");
    this.guard?.signal("SIGTERM");
    if (await this.exitsWithin(graceMs)) return this.exitInfo!;
    this.log.note(`no exit ${graceMs} ms after SIGTERM: SIGKILL`);
    this.signalGroup("SIGKILL");
    this.guard?.signal("SIGKILL");
    return this.exited;
  }

  private async exitsWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const done = await Promise.race([this.exited.then(() => true), timeout]);
    clearTimeout(timer);
    return done;
  }

  private finish(exit: Exit, resolve: (exit: Exit) => void): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    for (const tally of Object.values(this.tallies)) tally.flush();
    // Sweep the group and the whole tree: grandchildren of a plugin that exited must not outlive
    // it, not even those that left its group (setsid) or were adopted by init.
    this.signalGroup("SIGKILL");
    this.guard?.dispose();
    this.guard?.signal("SIGKILL", true);
    void this.peer.close();
    resolve(exit);
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch (error) {
      // ESRCH: the group is already gone, which is what we wanted.
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }
}
