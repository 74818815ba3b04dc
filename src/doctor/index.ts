export { runDoctor, formatResult, type CheckResult, type DoctorOptions } from "./checks.ts";
