/** An HTTP GET with a deadline and a byte cap: the body is read as a stream and cut at the cap. */
export type Fetched = { url: string; status: number; contentType: string; headers: Headers; body: Uint8Array; truncated: boolean };

export class FetchFailure extends Error {
  constructor(
    readonly code: "timeout" | "network" | "bad_url",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "FetchFailure";
  }
}

export async function fetchLimited(url: string, limits: { timeoutMs: number; maxBytes: number; signal?: AbortSignal; headers?: Record<string, string> }): Promise<Fetched> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new FetchFailure("bad_url", `Cannot fetch ${url}: not a URL`, { cause: error });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new FetchFailure("bad_url", `Cannot fetch ${url}: only http and https are allowed`);
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.signal ? AbortSignal.any([deadline, limits.signal]) : deadline;
  try {
    const response = await fetch(parsed, {
      signal,
      redirect: "follow",
      headers: { "user-agent": "homed-web-fetch/1", accept: "text/html,text/*;q=0.9,application/json;q=0.8,*/*;q=0.1", ...limits.headers },
    });
    const chunks: Uint8Array[] = [];
    let size = 0;
    let truncated = false;
    const reader = response.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = limits.maxBytes - size;
      if (value.length >= room) {
        chunks.push(value.subarray(0, room));
        size += room;
        truncated = value.length > room || !(await reader.read()).done;
        await reader.cancel().catch(() => {});
        break;
      }
      chunks.push(value);
      size += value.length;
    }
    const body = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      body.set(chunk, at);
      at += chunk.length;
    }
    return { url: response.url || parsed.href, status: response.status, contentType: response.headers.get("content-type") ?? "", headers: response.headers, body, truncated };
  } catch (error) {
    if (deadline.aborted) throw new FetchFailure("timeout", `Cannot fetch ${url}: no complete answer within ${limits.timeoutMs} ms`, { cause: error });
    if (error instanceof FetchFailure) throw error;
    throw new FetchFailure("network", `Cannot fetch ${url}: ${(error as Error).message}`, { cause: error });
  }
}
