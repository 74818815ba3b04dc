/**
 * `log` in homed.json: how large the daemon log and the audit file may grow. The defaults suit a
 * daemon left running for months; tests set them small to see rotation happen.
 */
import { z } from "zod";
import { DEFAULT_AUDIT_KEEP_ROTATED, DEFAULT_AUDIT_MAX_BYTES } from "./audit-file.ts";
import { DEFAULT_KEEP_ROTATED, DEFAULT_MAX_FILE_BYTES } from "./logger.ts";

export const LogConfigSchema = z.object({
  /** The daemon log rotates when a file would grow past this. */
  maxFileBytes: z.number().int().min(1024).default(DEFAULT_MAX_FILE_BYTES),
  /** Rotated daemon-log parts kept per day. */
  keepRotated: z.number().int().min(0).max(100).default(DEFAULT_KEEP_ROTATED),
  /** `audit.log` rotates only at its own size, never because the daemon log did. */
  auditMaxBytes: z.number().int().min(1024).default(DEFAULT_AUDIT_MAX_BYTES),
  auditKeepRotated: z.number().int().min(0).max(100).default(DEFAULT_AUDIT_KEEP_ROTATED),
});
export type LogConfig = z.output<typeof LogConfigSchema>;
