export { createLogger, logFileDay, LOG_LEVELS, type Logger, type LogLevel, type LoggerOptions } from "./logger.ts";
export { AuditFile, DEFAULT_AUDIT_MAX_BYTES, MAX_SUMMARIES_PER_MINUTE, type AuditEntry } from "./audit-file.ts";
export { AUDIT_FILE } from "./audit-file.ts";
export { LogConfigSchema, type LogConfig } from "./log-config.ts";
