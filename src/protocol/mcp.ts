/** The MCP versions homed speaks with plugins, and the `_meta` keys of its messages. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";
/** Handshake versions we speak, newest first. */
export const LEGACY_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  /** The kernel session a tool call is made for, so a plugin can name it in what it pushes later. */
  session: "homed/session",
  /** On a content part: its text (or image/audio data) is in the plugin's shared segment at this `{offset, length}`. */
  bulk: "homed/bulk",
} as const;
