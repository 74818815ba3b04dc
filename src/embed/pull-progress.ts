/**
 * How a pull shows its progress: a bar on a terminal (cli-progress), otherwise one plain line
 * per tenth of each file (a log, `journalctl`, CI), so a long download is seen to move without
 * filling the log with carriage returns.
 */
import { SingleBar } from "cli-progress";
import type { DownloadProgress } from "./model-download.ts";
import type { PullEvents } from "./model-pull.ts";

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export function pullProgress(io: { stderr(text: string): void; isTty: boolean }): PullEvents & { stop(): void } {
  let bar: SingleBar | undefined;
  let lastTenth = -1;
  const stop = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    onFile({ save }) {
      stop();
      lastTenth = -1;
      if (io.isTty) bar = new SingleBar({ format: `${save} [{bar}] {percentage}% {value}/{total} bytes`, hideCursor: true });
    },
    onProgress({ save }, { received, total }: DownloadProgress) {
      if (bar) {
        if (lastTenth < 0) bar.start(total ?? received, received);
        lastTenth = 0;
        bar.setTotal(total ?? received);
        bar.update(received);
        return;
      }
      if (total === undefined || total === 0) return;
      const tenth = Math.floor((received / total) * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      io.stderr(`${save}: ${tenth * 10}% (${mb(received)} of ${mb(total)})\n`);
    },
    onNote(line) {
      stop();
      io.stderr(`${line}\n`);
    },
    stop,
  };
}
