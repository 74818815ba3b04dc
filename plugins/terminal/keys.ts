/** Named keys a model can send after its input, as the bytes a terminal expects. */
export const KEYS = {
  enter: "\r",
  tab: "\t",
  escape: "\x1b",
  backspace: "\x7f",
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  home: "\x1b[H",
  end: "\x1b[F",
  page_up: "\x1b[5~",
  page_down: "\x1b[6~",
  delete: "\x1b[3~",
  ctrl_c: "\x03",
  ctrl_d: "\x04",
  ctrl_z: "\x1a",
  ctrl_l: "\x0c",
} as const;
export type KeyName = keyof typeof KEYS;
export const KEY_NAMES = Object.keys(KEYS) as [KeyName, ...KeyName[]];

/** Colour, cursor and title escape sequences, removed from output meant for a model. */
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
export const stripAnsi = (text: string) => text.replace(ANSI, "");
