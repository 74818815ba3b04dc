/** `homed recall "query"`: search cold context (the body: src/cli/recall.ts). */
import { defineCommand } from "../command.ts";

export const recallCommand = defineCommand({
  name: "recall",
  summary: '"query" | --queries FILE: search cold context (words, character grams, vectors; fused by rank and coverage, RRF or linearly)',
  usage: [
    'homed recall [-data DIR] [-conversation C] [-k N] [-channels LIST] [-fusion coverage|rrf|linear] [-since TIME] [-until TIME] [-explain] [-json] "query"',
    "homed recall [-data DIR] --queries FILE",
  ],
  flags: [
    {
      name: "conversation",
      value: "C",
      default: "",
      help: "`homed recall`: search only conversation C and user-wide memories (default: all; a chat searches all and ranks its own conversation first)",
    },
    { name: "k", value: "N", default: "10", help: "`homed recall`: number of results" },
    {
      name: "channels",
      value: "LIST",
      default: "words,grams (plus vector when an embedding model is installed)",
      help: "`homed recall`: ranked channels to fuse, comma-separated: words, grams, vector",
    },
    { name: "since", value: "TIME", default: "", help: "`homed recall`: only memories at or after this ISO 8601 date/time" },
    { name: "until", value: "TIME", default: "", help: "`homed recall`: only memories at or before this ISO 8601 date/time" },
    {
      name: "fusion",
      value: "METHOD",
      default: "homed.json's fusion.method, else coverage",
      help: "`homed recall`: coverage (reciprocal rank fusion plus a bonus for a match holding most of the query), rrf (reciprocal rank fusion, k = 60) or linear (normalised channel scores, combined)",
    },
    { name: "explain", default: "", help: "`homed recall`: show each channel's rank, raw score, coverage of the query (BM25 channels) and its contribution to the fused score" },
    { name: "queries", value: "FILE", default: "", help: '`homed recall`: batch mode, one {"id","query","conversation"?} per line in, one JSON line per query out' },
  ],
  takesArguments: true,
  run: async ({ args, rest, settings }, io) => (await import("../recall.ts")).runRecallCommand(rest, args, settings(), io),
});
