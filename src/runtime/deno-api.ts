/**
 * The few Deno APIs homed uses, typed here by hand: the project type-checks with bun-types
 * (tsc -p .), and Deno's own declarations (`deno types`) clash with them. Shapes follow
 * Deno 2's lib.deno.d.ts; only what src/runtime/*-deno.ts calls is declared.
 */

/** An opaque native pointer (Deno's PointerObject); null is the C null pointer. */
export type DenoPointer = { readonly __denoPointer: unique symbol } | null;

type NativeType = "i32" | "u32" | "i64" | "u64" | "usize" | "pointer" | "buffer" | "void";
export type ForeignFunction = { parameters: readonly NativeType[]; result: NativeType; nonblocking?: boolean };

/** A TCP address, or (transport "unix") a socket path, whose hostname and port are then absent. */
export type DenoNetAddr = { hostname: string; port: number; transport: string; path?: string };

export interface DenoHttpServer {
  readonly addr: DenoNetAddr;
  readonly finished: Promise<void>;
  shutdown(): Promise<void>;
}

export interface DenoApi {
  // biome-ignore lint/suspicious/noExplicitAny: each symbol's signature is the caller's declaration; typed where it is called
  dlopen<S extends Record<string, ForeignFunction>>(path: string, symbols: S): { symbols: { [K in keyof S]: (...args: any[]) => any }; close(): void };
  UnsafePointer: {
    of(buffer: ArrayBufferView): DenoPointer;
    value(pointer: DenoPointer): number | bigint;
    create(value: number | bigint): DenoPointer;
  };
  UnsafePointerView: {
    new (pointer: NonNullable<DenoPointer>): { getInt32(offset?: number): number };
    getArrayBuffer(pointer: NonNullable<DenoPointer>, byteLength: number, offset?: number): ArrayBuffer;
  };
  serve(
    options: ({ hostname: string; port: number } | { path: string; transport: "unix" }) & { signal?: AbortSignal; onListen?: (addr: DenoNetAddr) => void },
    handler: (request: Request, info: { remoteAddr: DenoNetAddr }) => Response | Promise<Response>,
  ): DenoHttpServer;
  execPath(): string;
  readonly mainModule: string;
  /** `standalone`: true inside a `deno compile`d program. */
  readonly build: { standalone?: boolean };
}

/** The `Deno` global; only call this from a file that runs under Deno. */
export function deno(): DenoApi {
  const api = (globalThis as { Deno?: DenoApi }).Deno;
  if (!api) throw new Error("This code path is Deno's, and Deno is not running it");
  return api;
}
