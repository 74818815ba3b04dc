/**
 * Downloads one model file: into `<file>.part`, resumed with an HTTP Range request after a
 * dropped connection (here, or in a run that was interrupted), then checked by sha256 and
 * renamed into place. A file whose checksum does not match is deleted, and the error says so:
 * a corrupt model must not stay where it would be loaded.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, renameSync, rmSync, statSync, openSync, writeSync, closeSync } from "node:fs";
import { HomedError } from "../errors/index.ts";

export class DownloadError extends HomedError {
  /** False when trying again cannot help (a 404, a full disk): the pull stops at once. */
  readonly retry: boolean;
  constructor(message: string, options?: ErrorOptions & { retry?: boolean }) {
    super("download", message, options);
    this.name = "DownloadError";
    this.retry = options?.retry ?? true;
  }
}

/** A refusal worth no second try: the file is not there, or not for us. 408 and 429 are waits, 5xx passing trouble. */
const finalStatus = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

function statusError(url: string, status: number): DownloadError {
  const why =
    status === 404
      ? "not found (HTTP 404): the mirror does not hold this file, or the name or revision is wrong"
      : status === 401 || status === 403
        ? `refused (HTTP ${status}): the repository is gated or private, or the mirror needs a login`
        : `HTTP ${status}`;
  return new DownloadError(`Cannot download ${url}: ${why}`, { retry: !finalStatus(status) });
}

/** Writes to the partial file, turning a full disk into a sentence that says what to do. */
function writeChunk(fd: number, chunk: Uint8Array, part: string, received: number): void {
  try {
    writeSync(fd, chunk);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOSPC" && code !== "EDQUOT") throw error;
    const mb = (received / 1e6).toFixed(1);
    throw new DownloadError(`The disk is full (${code}) writing ${part} after ${mb} MB; free some space and run the pull again (it resumes from there)`, { cause: error, retry: false });
  }
}

export type DownloadProgress = { received: number; total: number | undefined };
export type DownloadOptions = {
  /** Expected sha256 (hex); without one the file's checksum is returned for the caller to record. */
  sha256?: string;
  onProgress?: (progress: DownloadProgress) => void;
  /** Attempts per file; each resumes where the last stopped. */
  attempts?: number;
};

export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** One request: appends what arrives to `part` from `offset`; returns when the body ends. */
async function fetchInto(url: string, part: string, onProgress: DownloadOptions["onProgress"]): Promise<void> {
  const offset = existsSync(part) ? statSync(part).size : 0;
  const response = await fetch(url, { headers: offset > 0 ? { range: `bytes=${offset}-` } : {} });
  if (response.status === 416) {
    // What we hold is already the whole file (or more): start over rather than guess.
    rmSync(part, { force: true });
    throw new DownloadError(`${url}: the server refused the resume range; starting over`);
  }
  if (!response.ok || !response.body) throw statusError(url, response.status);
  // 206: the rest, appended; 200: the server ignored the range and sends everything again ("w" empties the file).
  const resumed = response.status === 206;
  const fd = openSync(part, resumed ? "a" : "w");
  let received = resumed ? offset : 0;
  const length = Number(response.headers.get("content-length") ?? Number.NaN);
  const total = Number.isFinite(length) ? received + length : undefined;
  try {
    for await (const chunk of response.body) {
      writeChunk(fd, chunk, part, received);
      received += chunk.byteLength;
      onProgress?.({ received, total });
    }
  } finally {
    closeSync(fd);
  }
  if (total !== undefined && received < total) throw new DownloadError(`${url}: the connection closed at ${received} of ${total} bytes`);
}

/** Downloads `url` to `dest` (resuming a `.part` left by an earlier run); resolves with its sha256. */
export async function downloadFile(url: string, dest: string, options: DownloadOptions = {}): Promise<string> {
  const part = `${dest}.part`;
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      await fetchInto(url, part, options.onProgress);
      break;
    } catch (error) {
      if (error instanceof DownloadError && !error.retry) throw error;
      if (attempt >= attempts) {
        throw new DownloadError(`Cannot download ${url} after ${attempts} attempts: ${(error as Error).message} (run the pull again to resume)`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
  const hash = await sha256File(part);
  if (options.sha256 && hash !== options.sha256) {
    rmSync(part, { force: true });
    throw new DownloadError(`The download of ${url} is corrupt: sha256 ${hash}, expected ${options.sha256}; the file was deleted, run the pull again`);
  }
  renameSync(part, dest);
  return hash;
}
