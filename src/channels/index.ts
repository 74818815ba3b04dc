/** Channel plugins, the host's side of the plugin role (QQ and Telegram are such plugins: plugins/qq, plugins/telegram). */
export { ChannelPlugins, RESERVED_CHANNELS, partnerFor, peerFor, type ChannelPluginsOptions } from "./plugin-channels.ts";
export { downloadImages, MAX_IMAGE_BYTES } from "./images.ts";
