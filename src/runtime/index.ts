/** The only door to runtime-specific code: Bun or Deno 2, each file picks its side (which.ts). */
export { readAsset, WEB_ASSETS, type AssetName, type WebAssetName } from "./assets.ts";
export { serve, serveOnUnixSocket, ListenError, type FetchHandler, type PeerInfo, type RunningServer } from "./serve.ts";
export { openFilesLimit } from "./open-files-limit.ts";
export { createSegment, openSegment, unlinkSegment, listSegments, SharedMemoryError, type SharedSegment } from "./shm.ts";
export { spawnPty, type Pty, type PtyOptions } from "./pty.ts";
export { selfCommand, scriptCommand, evalCommand } from "./self.ts";
export { startWorker } from "./worker.ts";
export { RUNTIME, type RuntimeName } from "./which.ts";
export { usePrivateFileModes, userUmask, useUserUmaskFrom, PRIVATE_UMASK, USER_UMASK_ENV } from "./file-modes.ts";
export { collectGarbage } from "./gc.ts";
export { nextMacrotask } from "./macrotask.ts";
export { openLockFile, FileLockError, type LockFile } from "./file-lock.ts";
export { sampleProcess, childrenOf, environmentValues, CLOCK_TICKS_PER_SECOND, type ProcessSample } from "./process-tree.ts";
