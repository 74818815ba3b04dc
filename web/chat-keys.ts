// The message box's keys: Enter sends and Shift+Enter starts a new line, as in every chat app;
// a person used to the reverse can switch, and the choice is kept in this browser.
const STORAGE_KEY = "homed.enterSends";

/** Whether Enter alone sends (the default) rather than starting a new line. */
export const enterSends = (): boolean => globalThis.localStorage?.getItem(STORAGE_KEY) !== "false";

export function setEnterSends(on: boolean): void {
  globalThis.localStorage?.setItem(STORAGE_KEY, String(on));
}

/**
 * Whether this key press sends the message: Ctrl/⌘+Enter always does; Enter alone when Enter
 * sends. An input method's Enter (picking a candidate while typing Chinese) never does.
 */
export function sendsMessage(e: KeyboardEvent, enterAlone = enterSends()): boolean {
  if (e.key !== "Enter" || e.isComposing || e.keyCode === 229) return false;
  if (e.ctrlKey || e.metaKey) return true;
  return enterAlone && !e.shiftKey && !e.altKey;
}
