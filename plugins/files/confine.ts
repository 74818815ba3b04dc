/**
 * Keeps every path inside the plugin's root: absolute paths and `..` are refused before any
 * file is touched, and symlinks are resolved so that a link pointing outside cannot be
 * followed (nor written through).
 */
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { ToolFailure } from "../sdk/index.ts";

export class Confinement {
  readonly root: string;

  constructor(root: string) {
    // The root itself may be a symlink (e.g. /tmp on some systems): compare real paths.
    this.root = realpathSync(root);
  }

  /** The real path of an existing entry inside the root. */
  existing(path: string): string {
    const lexical = this.lexical(path);
    let real: string;
    try {
      real = realpathSync(lexical);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new ToolFailure("not_found", `Cannot find ${path}: no such file or folder`, { path });
      throw error;
    }
    this.assertInside(real, path);
    return real;
  }

  /** Where a new entry may be created: its folder must exist inside the root. */
  creatable(path: string): string {
    const lexical = this.lexical(path);
    if (lexical === this.root) throw new ToolFailure("outside_root", `Cannot write ${path}: that is the root folder itself`, { path });
    const folder = this.existing(relative(this.root, dirname(lexical)) || ".");
    return resolve(folder, basename(lexical));
  }

  private lexical(path: string): string {
    if (isAbsolute(path)) throw new ToolFailure("outside_root", `Cannot use ${path}: absolute paths are not allowed; give a path relative to the root`, { path });
    const full = resolve(this.root, path);
    this.assertInside(full, path);
    return full;
  }

  private assertInside(full: string, asked: string): void {
    if (full !== this.root && !full.startsWith(this.root + sep)) {
      throw new ToolFailure("outside_root", `Cannot use ${asked}: it leads outside the root folder`, { path: asked });
    }
  }
}
