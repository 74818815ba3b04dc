/**
 * homed's A2A agent card, in the two shapes clients ask for. A2A v1.0 clients announce
 * `A2A-Version: 1.0` when they fetch the card and get the v1.0 card (`supportedInterfaces`, one
 * JSON-RPC interface per protocol version); a request without the header is a v0.3 client (spec
 * §3.6.2) and gets the v0.3 card (top-level `url`, `protocolVersion`, `security`). Both name the
 * same endpoint, which answers both versions' methods. The card is public, as discovery needs;
 * it says that every call needs a bearer key.
 */
import { AgentCard } from "@a2a-js/sdk";
import { z } from "zod";
import { VERSION } from "../version.ts";

/** `channels.a2a` in homed.json: the channel is off until `enabled` is true. */
export const A2AConfigSchema = z.object({
  enabled: z.boolean().default(false),
  /** What the card calls this agent. */
  name: z.string().min(1).max(200).default("homed"),
  description: z.string().min(1).max(2000).default("A personal agent with long-term memory: it remembers what it was told, across conversations and channels."),
  /**
   * The address other agents reach homed at (`https://homed.example.org`), when a proxy stands
   * in front; without it the card names the address the card was fetched from.
   */
  publicUrl: z.url().optional(),
});
export type A2AConfig = z.output<typeof A2AConfigSchema>;

/** Where the JSON-RPC endpoint is, below the daemon's address. */
export const A2A_PATH = "/a2a";

const SKILL = {
  id: "chat",
  name: "Chat with memory",
  description: "Answers a message the way homed's own chat does, with what it remembers of earlier conversations with the same partner.",
  tags: ["chat", "memory"],
  examples: ["What did I tell you about my travel plans?"],
};

const MODES = ["text/plain"];

/** The v1.0 card as the SDK's request handler holds it (its proto form). */
export function a2aCard(config: A2AConfig, origin: string): AgentCard {
  const url = `${(config.publicUrl ?? origin).replace(/\/+$/, "")}${A2A_PATH}`;
  return AgentCard.fromJSON({
    name: config.name,
    description: config.description,
    version: VERSION,
    supportedInterfaces: [
      { url, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    ],
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: "Bearer", description: "homed's admin token, or an app key with the a2a scope (homed key create NAME -scopes a2a)" } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills: [SKILL],
  });
}

/** The v1.0 card on the wire. */
export const v1CardJson = (card: AgentCard) => AgentCard.toJSON(card);

/** The same card in v0.3's shape, for clients that did not ask for v1.0. */
export function v03CardJson(card: AgentCard) {
  const url = card.supportedInterfaces[0]!.url;
  return {
    protocolVersion: "0.3.0",
    name: card.name,
    description: card.description,
    url,
    preferredTransport: "JSONRPC",
    version: card.version,
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    security: [{ bearer: [] }],
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills: [SKILL],
  };
}
