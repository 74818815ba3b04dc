/**
 * The kernel's view of all plugins: start them in facility order (independent ones in
 * parallel), list their state, restart one by hand, list and call their tools, stop them all.
 */
import { systemClock, type Clock } from "./clock.ts";
import type { CallToolOptions, CallToolResult, Tool } from "./mcp-client.ts";
import { resolveBulk } from "./bulk.ts";
import { runStage, type HookOutcome } from "./hooks.ts";
import type { Stage } from "../protocol/index.ts";
import { startupDependencies, startupWaves } from "./order.ts";
import { sweepStaleSegments, type SharedAccess } from "./shared-link.ts";
import { sweepOrphanedTrees } from "./process-tree-guard.ts";
import type { PluginSpec } from "./spec.ts";
import { Supervisor, type PluginNotificationListener, type PluginRequestHandler, type PluginState, type PluginStatus, type Report } from "./supervisor.ts";
import type { IntakeLimits } from "./intake.ts";
import { HomedError } from "../errors/index.ts";

/** Local failures of the host, with string codes the HTTP layer maps to statuses. */
export class PluginError extends HomedError {
  constructor(
    override readonly code: "unknown_plugin" | "plugin_unavailable" | "dependency_failed",
    message: string,
    options?: ErrorOptions,
  ) {
    super(code, message, options);
    this.name = "PluginError";
  }
}

export type HostedTool = { plugin: string; tool: Tool };

/** A hook is on the path of every turn: a plugin gets this long unless the caller says otherwise. */
export const DEFAULT_HOOK_DEADLINE_MS = 2000;

export interface PluginHost {
  /** Starts every plugin once its required facilities' providers run; resolves when all tried. */
  start(): Promise<void>;
  list(): PluginStatus[];
  status(name: string): PluginStatus;
  /** Resolves once the plugin is in one of `states`. */
  waitFor(name: string, ...states: PluginState[]): Promise<PluginStatus>;
  restart(name: string): Promise<PluginStatus>;
  listTools(): HostedTool[];
  callTool(plugin: string, tool: string, args: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  stopAll(): Promise<void>;
  /** The kernel's side of a running plugin's shared segment, if it has one. */
  shared(plugin: string): SharedAccess | undefined;
  /**
   * Passes a stage's payload through every running plugin that declared the stage, in
   * start-up order, each within its own deadline (manifest) or `deadlineMs`. Rejects with
   * HookFailedError only when a plugin whose failure policy is `fail` failed.
   */
  runHook(stage: Stage, payload: unknown, options?: { deadlineMs?: number }): Promise<HookOutcome>;
  /** Events pushed by any plugin through its segment's ring. */
  onEvent(listener: (plugin: string, event: unknown) => void): () => void;
  /** The last RECENT_EVENTS pushed events, newest first (for the console). */
  recentEvents(): PushedEvent[];
  /** How the plugin is launched (its name, its channel's partner mapping…). */
  spec(name: string): PluginSpec;
  /**
   * Answers requests plugins send the kernel (`method`, namespaced `homed/…`), the plugin's name
   * first. Installed on each plugin process as it starts: register before `start()`.
   */
  handle(method: string, handler: PluginRequestHandler): void;
  /** Listens to notifications plugins send the kernel (`method`, namespaced `homed/…`); register before `start()`, like `handle`. */
  listen(method: string, listener: PluginNotificationListener): void;
  /** A request to a running plugin (a channel's delivery); rejects with `plugin_unavailable` when it does not run. */
  request(plugin: string, method: string, params: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<unknown>;
  /** A notification to a running plugin (a streamed answer's delta); dropped when it does not run. */
  notify(plugin: string, method: string, params: Record<string, unknown>): Promise<void>;
  /** Calls `listener` each time a plugin comes to run (its first start and every restart). */
  onRunning(listener: (status: PluginStatus) => void): () => void;
}

/** Pushed events the host keeps for the console; each cut at RECENT_EVENT_CHARS of JSON. */
export const RECENT_EVENTS = 100;
export const RECENT_EVENT_CHARS = 2000;
export type PushedEvent = { at: number; plugin: string; event: unknown };

export type PluginHostOptions = {
  clock?: Clock;
  graceMs?: number;
  maxFrameBytes?: number;
  /** Where state changes, crashes and dropped floods are told (the daemon log). */
  report?: Report;
  /** Per-plugin intake limits (intake.ts defaults when absent). */
  limits?: IntakeLimits;
};

export function createPluginHost(specs: readonly PluginSpec[], options: PluginHostOptions = {}): PluginHost {
  // Ordering errors surface here, before any process starts.
  const deps = startupDependencies(specs);
  // Segments of a previous kernel that crashed are removed before new ones are made.
  sweepStaleSegments();
  // So are the plugin processes such a kernel left running (those whose marker names a homed that is gone).
  const orphans = sweepOrphanedTrees();
  if (orphans.length > 0) options.report?.("warn", `ended ${orphans.length} plugin process${orphans.length === 1 ? "" : "es"} left running by a homed that is gone (pid ${orphans.join(", ")})`);
  const handlers = new Map<string, PluginRequestHandler>();
  const listeners = new Map<string, PluginNotificationListener>();
  const supervisors = new Map(
    specs.map((spec) => [
      spec.name,
      new Supervisor(spec, {
        clock: options.clock ?? systemClock,
        ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
        ...(options.maxFrameBytes !== undefined ? { maxFrameBytes: options.maxFrameBytes } : {}),
        ...(options.report ? { report: options.report } : {}),
        ...(options.limits ? { limits: options.limits } : {}),
        handlers,
        listeners,
      }),
    ]),
  );
  const get = (name: string) => {
    const supervisor = supervisors.get(name);
    if (!supervisor) throw new PluginError("unknown_plugin", `Cannot find plugin "${name}": no such plugin is configured`);
    return supervisor;
  };
  const runningOrFailed = (s: Supervisor) => s.currentState === "running" || s.currentState === "failed" || s.currentState === "stopped";

  // Hooks run providers before the plugins that build on them.
  const hookOrder = startupWaves(deps).flat();
  const started = new Map<string, Promise<void>>();
  // Set by stopAll: a start still waiting for its requirements must not launch afterwards.
  let stopping = false;
  const startOne = (name: string): Promise<void> => {
    let promise = started.get(name);
    if (!promise) {
      promise = (async () => {
        const supervisor = get(name);
        const needs = deps.get(name) ?? [];
        await Promise.all(needs.map((dep) => startOne(dep).then(() => get(dep).until(runningOrFailed))));
        const broken = needs.filter((dep) => get(dep).currentState !== "running");
        if (stopping) return;
        if (broken.length > 0) {
          const line = `not started: required plugin ${broken.join(", ")} is not running`;
          supervisor.log.note(line);
          options.report?.("error", `plugin ${name}: ${line}`);
          return;
        }
        await supervisor.start();
      })();
      started.set(name, promise);
    }
    return promise;
  };

  const recent: PushedEvent[] = [];
  for (const s of supervisors.values()) {
    s.onEvent((event) => {
      const json = JSON.stringify(event) ?? "null";
      recent.push({ at: Date.now(), plugin: s.spec.name, event: json.length > RECENT_EVENT_CHARS ? { cut: `${json.slice(0, RECENT_EVENT_CHARS)}…`, chars: json.length } : event });
      if (recent.length > RECENT_EVENTS) recent.shift();
    });
  }

  return {
    async start() {
      await Promise.all([...supervisors.keys()].map(startOne));
    },
    recentEvents: () => [...recent].reverse(),
    list: () => [...supervisors.values()].map((s) => s.status()),
    status: (name) => get(name).status(),
    async waitFor(name, ...states) {
      const supervisor = get(name);
      await supervisor.until((s) => states.includes(s.currentState));
      return supervisor.status();
    },
    async restart(name) {
      const supervisor = get(name);
      await supervisor.restart();
      return supervisor.status();
    },
    listTools: () => [...supervisors.values()].flatMap((s) => (s.running ? s.toolList.map((tool) => ({ plugin: s.spec.name, tool })) : [])),
    async callTool(plugin, tool, args, callOptions = {}) {
      const child = get(plugin).running;
      if (!child) throw new PluginError("plugin_unavailable", `Cannot call ${plugin}/${tool}: the plugin is ${get(plugin).currentState}`);
      // A large result's parts come through the plugin's shared segment (bulk.ts): read back here.
      return resolveBulk(await child.client.callTool(tool, args, callOptions), get(plugin).sharedAccess, plugin);
    },
    shared: (plugin) => get(plugin).sharedAccess,
    spec: (name) => get(name).spec,
    handle(method, handler) {
      handlers.set(method, handler);
    },
    listen(method, listener) {
      listeners.set(method, listener);
    },
    async request(plugin, method, params, requestOptions = {}) {
      const child = get(plugin).running;
      if (!child) throw new PluginError("plugin_unavailable", `Cannot send ${method} to ${plugin}: the plugin is ${get(plugin).currentState}`);
      return child.client.call(method, params, requestOptions.timeoutMs);
    },
    async notify(plugin, method, params) {
      await get(plugin).running?.peer.notify(method, params);
    },
    onRunning(listener) {
      const offs = [...supervisors.values()].map((s) => {
        let was = s.currentState;
        return s.subscribe(() => {
          const now = s.currentState;
          if (now === "running" && was !== "running") listener(s.status(0));
          was = now;
        });
      });
      return () => {
        for (const off of offs) off();
      };
    },
    runHook(stage, payload, hookOptions = {}) {
      const targets = hookOrder.flatMap((name) => {
        const s = get(name);
        const manifest = s.running ? s.status(0).manifest : null;
        if (!manifest?.hooks.includes(stage)) return [];
        return [
          {
            plugin: name,
            ...(manifest.hookDeadlineMs ? { deadlineMs: manifest.hookDeadlineMs } : {}),
            onFailure: manifest.hookFailure,
            ask: (st: Stage, p: unknown, deadlineMs: number) => s.running!.client.call("homed/hook", { stage: st, payload: p }, deadlineMs),
            note: (line: string) => s.log.note(line),
          },
        ];
      });
      return runStage(targets, stage, payload, hookOptions.deadlineMs ?? DEFAULT_HOOK_DEADLINE_MS);
    },
    onEvent(listener) {
      const offs = [...supervisors.values()].map((s) => s.onEvent((event) => listener(s.spec.name, event)));
      return () => {
        for (const off of offs) off();
      };
    },
    async stopAll() {
      stopping = true;
      await Promise.all([...supervisors.values()].map((s) => s.stop()));
    },
  };
}
