/**
 * Keeps every path inside the plugin's root. Absolute paths and `..` are refused before any
 * file is touched. Resolution and open are one step that another process cannot redirect: an
 * entry is opened first (symlinks followed by the kernel), then the descriptor's real path —
 * what `/proc/self/fd/N` names, fixed once the descriptor exists — is checked against the root
 * before a byte is read. A new entry is created through a verified descriptor of its folder
 * (`/proc/self/fd/N/name`, the final name never followed), so a folder swapped for a symlink
 * between check and use cannot carry a write outside, not even for a moment.
 *
 * Measured (tests/plugins/files-race.test.ts: a second process swaps a folder and a link to
 * `../outside` with renameat2(RENAME_EXCHANGE) as fast as it can): resolve-then-open let 1–7
 * of 20,000 reads return the outside file, 18–117 writes land outside and 1–16 of 2,000
 * listings show the outside folder (the probe: 122 reads and 381 writes of 39,031);
 * open-then-verify: 0 of each.
 */
import { constants, readlinkSync, realpathSync } from "node:fs";
import { mkdir, open, type FileHandle } from "node:fs/promises";
import { basename, dirname, isAbsolute, resolve, sep } from "node:path";
import { ToolFailure } from "../sdk/index.ts";

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_WRONLY, O_CREAT, O_TRUNC } = constants;

export class Confinement {
  readonly root: string;

  constructor(root: string) {
    // The root itself may be a symlink (e.g. /tmp on some systems): compare real paths.
    this.root = realpathSync(root);
  }

  /**
   * Opens an existing entry inside the root for reading. O_NONBLOCK: a FIFO planted in the
   * root must not hang the plugin on open.
   */
  openExisting(path: string): Promise<FileHandle> {
    return this.openVerified(path, this.lexical(path), O_RDONLY | O_NONBLOCK);
  }

  /** Opens an existing folder inside the root. */
  openFolder(path: string): Promise<FileHandle> {
    return this.openVerified(path, this.lexical(path), O_RDONLY | O_DIRECTORY);
  }

  /**
   * Opens (creating or truncating) a file for writing: its folder is opened and verified first,
   * and the file is created relative to that descriptor with O_NOFOLLOW.
   */
  async openForWrite(path: string): Promise<FileHandle> {
    const { folder, name } = await this.parentOf(path);
    try {
      return await open(`${descriptorPath(folder)}/${name}`, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK, 0o644).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ELOOP") throw new ToolFailure("outside_root", `Cannot write ${path}: it is a symbolic link`, { path });
        throw this.failure(path, error);
      });
    } finally {
      await folder.close();
    }
  }

  /** Makes a folder inside an existing, verified folder; an existing entry of that name is left as it is. */
  async makeFolder(path: string): Promise<void> {
    const { folder, name } = await this.parentOf(path);
    try {
      await mkdir(`${descriptorPath(folder)}/${name}`).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "EEXIST") throw this.failure(path, error);
      });
    } finally {
      await folder.close();
    }
  }

  private async parentOf(path: string): Promise<{ folder: FileHandle; name: string }> {
    const lexical = this.lexical(path);
    if (lexical === this.root) throw new ToolFailure("outside_root", `Cannot write ${path}: that is the root folder itself`, { path });
    const folder = await this.openVerified(path, dirname(lexical), O_RDONLY | O_DIRECTORY);
    return { folder, name: basename(lexical) };
  }

  private async openVerified(asked: string, lexical: string, flags: number): Promise<FileHandle> {
    const handle = await open(lexical, flags).catch((error: NodeJS.ErrnoException) => {
      throw this.failure(asked, error);
    });
    let real: string;
    try {
      real = readlinkSync(descriptorPath(handle));
    } catch (error) {
      await handle.close();
      throw error;
    }
    if (!this.inside(real)) {
      await handle.close();
      throw new ToolFailure("outside_root", `Cannot use ${asked}: it leads outside the root folder`, { path: asked });
    }
    return handle;
  }

  private lexical(path: string): string {
    if (isAbsolute(path)) throw new ToolFailure("outside_root", `Cannot use ${path}: absolute paths are not allowed; give a path relative to the root`, { path });
    const full = resolve(this.root, path);
    if (!this.inside(full)) throw new ToolFailure("outside_root", `Cannot use ${path}: it leads outside the root folder`, { path });
    return full;
  }

  private inside(full: string): boolean {
    return full === this.root || full.startsWith(this.root + sep);
  }

  private failure(path: string, error: NodeJS.ErrnoException): Error {
    switch (error.code) {
      case "ENOENT":
      case "ENOTDIR":
        return new ToolFailure("not_found", `Cannot find ${path}: no such file or folder`, { path });
      case "ELOOP":
        return new ToolFailure("bad_link", `Cannot use ${path}: too many levels of symbolic links`, { path });
      default:
        return error;
    }
  }
}

/** The magic link through which the kernel resolves names relative to an open descriptor. */
const descriptorPath = (handle: FileHandle) => `/proc/self/fd/${handle.fd}`;
