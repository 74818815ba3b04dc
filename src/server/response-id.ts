/**
 * A Responses API id names the homed session and turn it came from: `resp_` then the session's
 * uuid and the turn's (the kernel's `turnId`, which stage hooks and plugins see), 32 hex digits
 * each. `previous_response_id` is read back here into the session it continues, which then goes
 * through the same check as `X-Homed-Session` (openai-session.ts): the id carries no authority of
 * its own. A response with `store: false` gets an id naming no session (the turn's alone), which
 * no later request can continue, as OpenAI answers for a response it did not store.
 *
 * The answer's message item is `msg_` and the turn's uuid: runTurn stores the answer under the
 * turn's id, so an `item_reference` to it finds the stored text (openai-session.ts checks who may).
 */
import { randomUUID } from "node:crypto";
import { HomedError } from "../errors/index.ts";
import type { NamedSession } from "./openai-session.ts";

const hex = (uuid: string) => uuid.replaceAll("-", "");
const uuid = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

/** A new turn's id and the response id that names it (in its session, when stored). */
export function newResponseId(sessionId: string, store: boolean): { turnId: string; responseId: string } {
  const turnId = randomUUID();
  return { turnId, responseId: store ? `resp_${hex(sessionId)}${hex(turnId)}` : `resp_${hex(turnId)}` };
}

/**
 * The session a `previous_response_id` names, to be opened only through `requestSession`; an id
 * homed never made names none (an empty id), so it answers exactly as a forbidden one.
 */
export function previousResponseSession(responseId: string): NamedSession {
  const match = /^resp_([0-9a-f]{32})[0-9a-f]{32}$/.exec(responseId);
  return {
    id: match ? uuid(match[1]!) : "",
    notFound: new HomedError("previous_response_not_found", `Previous response with id '${responseId}' not found.`, { param: "previous_response_id" }),
  };
}

/** The id of a turn's answer as a Responses message item. */
export const messageItemId = (turnId: string) => `msg_${hex(turnId)}`;

/** The turn whose answer a message item id names, or undefined for an id homed never made. */
export function turnOfMessageItem(id: string): string | undefined {
  const match = /^msg_([0-9a-f]{32})$/.exec(id);
  return match ? uuid(match[1]!) : undefined;
}
