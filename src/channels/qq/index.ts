export { QQChannel, QQConfigSchema, QQ_CHANNEL, answerSegments, type QQConfig } from "./qq-channel.ts";
export { cqToSegments, messageText, mentions } from "./onebot.ts";
