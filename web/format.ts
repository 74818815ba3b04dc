// Sizes as a person reads them, in the reader's language's digits.
import { num } from "./i18n.ts";

export function bytes(n: number): string {
  const units = ["B", "KB", "MB", "GB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) (n /= 1024), i++;
  return `${num(n, { maximumFractionDigits: i ? 1 : 0, minimumFractionDigits: i ? 1 : 0 })} ${units[i]}`;
}
