// The conversation list's search reaches what was said, not only names: the conversations whose
// live messages contain the words, found by the memory search the Memory page uses (its L1
// listing matches text case-insensitively), asked once the typing pauses. Names, partners and
// channels still match at once, in the page.
import { useEffect, useState } from "preact/hooks";
import { api } from "./api.ts";
import type { SearchAnswer } from "./api-types.ts";

/** Typing pauses this long before the daemon is asked. */
const PAUSE_MS = 250;

/** The ids of the conversations whose live messages contain `q` (empty while q is under two characters). */
export function useConversationsSaying(q: string): ReadonlySet<string> {
  const [found, setFound] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const words = q.trim();
    if ([...words].length < 2) {
      setFound(new Set());
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      const query = new URLSearchParams({ q: words, layer: "L1", limit: "200" });
      api<SearchAnswer>("GET", `/api/memory/search?${query}`).then(
        ({ records }) => current && setFound(new Set(records.flatMap((r) => (r.kind === "event" && typeof r.provenance.session === "string" ? [r.provenance.session] : [])))),
        () => current && setFound(new Set()),
      );
    }, PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [q]);
  return found;
}
