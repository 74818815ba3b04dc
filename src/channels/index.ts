/** Channels the daemon runs: QQ (its own module, for now) and channel plugins (the host's side of the plugin role). */
export { ChannelPlugins, RESERVED_CHANNELS, partnerFor, peerFor, type ChannelPluginsOptions } from "./plugin-channels.ts";
export { downloadImages, MAX_IMAGE_BYTES } from "./images.ts";
