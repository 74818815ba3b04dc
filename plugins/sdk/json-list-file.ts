/**
 * A list of records kept in one JSON file `{"version": 1, "<key>": [...]}`, validated with zod on
 * every read and replaced atomically on every write (a temporary file, then rename), so a crash
 * mid-write leaves the old file whole. Plugins that keep a small list (notes, feeds) share it.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

export class JsonListFile<T> {
  readonly file: string;
  private readonly schema: z.ZodType<{ version: 1 } & Record<string, unknown>>;

  constructor(
    dir: string,
    name: string,
    private readonly key: string,
    item: z.ZodType<T>,
  ) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, name);
    this.schema = z.object({ version: z.literal(1), [key]: z.array(item) }) as unknown as z.ZodType<{ version: 1 } & Record<string, unknown>>;
  }

  /** Every record; none when the file does not exist yet. A damaged file is an error, never emptied. */
  read(): T[] {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const parsed = this.schema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`Cannot read ${this.file}: ${z.prettifyError(parsed.error)}`);
    return parsed.data[this.key] as T[];
  }

  write(records: readonly T[]): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ version: 1, [this.key]: records }, null, 1)}\n`);
    renameSync(temporary, this.file);
  }
}
