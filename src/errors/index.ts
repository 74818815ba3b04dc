export { HomedError } from "./homed-error.ts";
export { ERRORS, errorCodeOf, httpStatusOf, exitCodeOf, type ErrorCode, type ErrorRow } from "./table.ts";
