/**
 * Keeps one plugin alive. A crash (an exit nobody asked for, or a failed handshake) restarts
 * it after 1 s, 2 s, 3 s — the n-th crash within five minutes waits n seconds — and the 4th
 * crash within five minutes stops restarts until a person calls `restart()`: a plugin that
 * cannot stay up should not burn CPU forever nor hide behind endless restarts.
 */
import type { Dropped, Exit } from "./child.ts";
import { openPlugin, type PluginConnection } from "./connection.ts";
import type { Clock } from "./clock.ts";
import { LogRing } from "./log-ring.ts";
import type { Manifest, Tool } from "./mcp-client.ts";
import { attachSharedMemory, type SharedAccess, type SharedLink } from "./shared-link.ts";
import type { PluginSpec } from "./spec.ts";
import type { IntakeLimits } from "./intake.ts";

export const CRASH_WINDOW_MS = 5 * 60_000;
export const MAX_CRASHES_IN_WINDOW = 4;
export const backoffMs = (crashesInWindow: number) => crashesInWindow * 1000;

export type PluginState = "idle" | "starting" | "running" | "backoff" | "failed" | "stopping" | "stopped";

export type PluginStatus = {
  name: string;
  state: PluginState;
  pid: number | null;
  restarts: number;
  crashesInWindow: number;
  lastExit: (Exit & { at: number }) | null;
  nextRestartAt: number | null;
  protocol: string | null;
  tools: string[];
  manifest: Manifest | null;
  sharedMemory: { name: string; size: number; droppedEvents: number } | null;
  /** What the intake limits dropped from the current (or last) process. */
  dropped: Dropped | null;
  error: string | null;
  logTail: string[];
};

export type ReportLevel = "info" | "warn" | "error";
/** Where a plugin's state changes, crashes and drops are told besides its own log (the daemon log). */
export type Report = (level: ReportLevel, line: string) => void;

/** A request a plugin may send the kernel (a channel's inbound message), with the plugin's name. */
export type PluginRequestHandler = (plugin: string, params: unknown, context: { signal: AbortSignal }) => unknown;

export type SupervisorOptions = {
  clock: Clock;
  graceMs?: number;
  logLines?: number;
  maxFrameBytes?: number;
  report?: Report;
  limits?: IntakeLimits;
  /** Requests the kernel answers, by method; read at each start, so a handler added later serves the next process. */
  handlers?: ReadonlyMap<string, PluginRequestHandler>;
  /** Notifications the kernel listens to, by method, read at each start like `handlers`. */
  listeners?: ReadonlyMap<string, PluginNotificationListener>;
};

/** A notification a plugin may send the kernel (a channel's report), with the plugin's name. */
export type PluginNotificationListener = (plugin: string, params: unknown) => void;

export class Supervisor {
  readonly log: LogRing;
  private state: PluginState = "idle";
  private child?: PluginConnection;
  private crashes: number[] = [];
  private restarts = 0;
  private lastExit: PluginStatus["lastExit"] = null;
  private nextRestartAt: number | null = null;
  private timer: unknown;
  private tools: Tool[] = [];
  private manifest: Manifest | null = null;
  private error: string | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly eventListeners = new Set<(event: unknown) => void>();
  private shared?: SharedLink;

  constructor(
    readonly spec: PluginSpec,
    private readonly options: SupervisorOptions,
  ) {
    this.log = new LogRing(options.logLines);
  }

  status(tailLines = 50): PluginStatus {
    return {
      name: this.spec.name,
      state: this.state,
      pid: this.state === "running" || this.state === "starting" ? (this.child?.pid ?? null) : null,
      restarts: this.restarts,
      crashesInWindow: this.recentCrashes().length,
      lastExit: this.lastExit,
      nextRestartAt: this.nextRestartAt,
      protocol: this.child?.client.info ? `${this.child.client.info.protocol} ${this.child.client.info.protocolVersion}` : null,
      tools: this.tools.map((t) => t.name),
      manifest: this.manifest,
      sharedMemory: this.shared ? { name: this.shared.name, size: this.shared.size, droppedEvents: this.shared.access.droppedEvents } : null,
      dropped: this.child?.dropped ?? null,
      error: this.error,
      logTail: this.log.tail(tailLines),
    };
  }

  get currentState(): PluginState {
    return this.state;
  }

  /** The connected child while running (for calls); undefined otherwise. */
  get running(): PluginConnection | undefined {
    return this.state === "running" ? this.child : undefined;
  }

  get toolList(): readonly Tool[] {
    return this.tools;
  }

  /** The kernel's side of the shared segment while running (only for plugins that asked for one). */
  get sharedAccess(): SharedAccess | undefined {
    return this.state === "running" ? this.shared?.access : undefined;
  }

  /** Events the plugin pushed through its segment's ring. */
  onEvent(listener: (event: unknown) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Calls `listener` after every state change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when `predicate` holds for this supervisor (checked now and after each change). */
  until(predicate: (s: Supervisor) => boolean): Promise<void> {
    if (predicate(this)) return Promise.resolve();
    return new Promise((resolve) => {
      const off = this.subscribe(() => {
        if (predicate(this)) {
          off();
          resolve();
        }
      });
    });
  }

  /** Starts the plugin; resolves once it runs or its start failed (a crash, handled as such). */
  async start(): Promise<void> {
    if (this.state === "starting" || this.state === "running" || this.state === "stopping") return;
    this.cancelTimer();
    this.error = null;
    this.set("starting");
    const child = openPlugin(this.spec, {
      log: this.log,
      report: (line) => this.options.report?.("warn", `plugin ${this.spec.name}: ${line}`),
      ...(this.options.maxFrameBytes ? { maxFrameBytes: this.options.maxFrameBytes } : {}),
      ...(this.options.limits ? { limits: this.options.limits } : {}),
    });
    this.child = child;
    for (const [method, handler] of this.options.handlers ?? []) child.peer.handle(method, (params, context) => handler(this.spec.name, params, context));
    for (const [method, listener] of this.options.listeners ?? []) child.peer.on(method, (params) => listener(this.spec.name, params));
    void child.exited.then((exit) => this.onExit(child, exit));
    try {
      await child.connect();
      this.manifest = await child.client.manifest();
      // A remote plugin cannot map this machine's memory: it gets its payloads inline.
      if (this.manifest?.sharedMemory && child.local) {
        this.shared = await attachSharedMemory(
          child,
          this.spec.name,
          this.spec.sharedMemoryBytes,
          (event) => {
            for (const listener of this.eventListeners) listener(event);
          },
          (since, total) => this.tell("warn", `${since} pushed events dropped (its event ring was full), ${total} since it started`),
        );
      }
      this.tools = await child.client.listTools();
    } catch (error) {
      if (this.child !== child || this.currentState !== "starting") return;
      this.error = `Cannot start ${this.spec.name}: ${(error as Error).message}`;
      this.tell("warn", this.error);
      // A plugin that cannot handshake is as good as crashed: stop it and let onExit count it.
      await child.stop(this.options.graceMs ?? 2000);
      return;
    }
    if (this.child === child && this.currentState === "starting") {
      this.tell("info", `running (pid ${child.pid}, ${this.tools.length} tools)`);
      this.set("running");
    }
  }

  /** A person's restart: forgets the crash history, so restarts resume. */
  async restart(): Promise<void> {
    this.crashes = [];
    this.restarts++;
    this.tell("info", "restart requested");
    await this.stopChild();
    await this.start();
  }

  async stop(): Promise<void> {
    await this.stopChild();
    if (this.state !== "stopped") this.set("stopped");
  }

  private async stopChild(): Promise<void> {
    this.cancelTimer();
    const child = this.child;
    if (!child || child.exit) return;
    this.set("stopping");
    await child.stop(this.options.graceMs ?? 2000);
    this.set("stopped");
  }

  private onExit(child: PluginConnection, exit: Exit): void {
    if (this.child !== child) return;
    const now = this.options.clock.now();
    this.lastExit = { ...exit, at: now };
    this.tools = [];
    // The segment goes with the process that used it: no stale names in /dev/shm.
    this.shared?.dispose();
    this.shared = undefined;
    if (this.state === "stopping" || this.state === "stopped") return;
    this.crashes = [...this.recentCrashes(), now];
    const count = this.crashes.length;
    const said = this.log.lastOutput;
    const lastWords = said ? `; last stderr: ${JSON.stringify(said)}` : "";
    // Killed for its limits: a crash like any other (the same back-off and stop), said as such.
    if (child.killedFor) this.error = `Killed for going over its limits: ${child.killedFor}`;
    const exited = `exited (code ${exit.code}, signal ${exit.signal}${child.killedFor ? ", over its limits" : ""}); crash ${count} within 5 minutes`;
    if (count >= MAX_CRASHES_IN_WINDOW) {
      const stopped = `crashed ${count} times within 5 minutes; restarts stopped until restarted by hand`;
      this.tell("error", `${exited}: failed, ${stopped}${lastWords}`);
      this.error = this.error ? `${stopped} (last: ${this.error})` : stopped;
      this.set("failed");
      return;
    }
    const delay = backoffMs(count);
    this.tell("warn", `${exited}: restarting in ${delay / 1000} s${lastWords}`);
    this.nextRestartAt = now + delay;
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      this.nextRestartAt = null;
      this.restarts++;
      void this.start();
    }, delay);
    this.set("backoff");
  }

  private recentCrashes(): number[] {
    const since = this.options.clock.now() - CRASH_WINDOW_MS;
    return this.crashes.filter((at) => at > since);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.nextRestartAt = null;
  }

  /** A line in the plugin's own log and, with the plugin's name, in the daemon log. */
  private tell(level: ReportLevel, line: string): void {
    this.log.note(line);
    this.options.report?.(level, `plugin ${this.spec.name}: ${line}`);
  }

  private set(state: PluginState): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }
}
