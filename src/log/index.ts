export { createLogger, logFileDay, LOG_LEVELS, type Logger, type LogLevel, type LoggerOptions } from "./logger.ts";
