/**
 * The stored shape of homed's memory (DESIGN §3). drizzle-kit generates the migrations from
 * this file (`make migrations`); FTS5 tables and vector indexes live in a hand-written
 * migration because drizzle-kit cannot express them.
 */
import { sql } from "drizzle-orm";
import { blob, check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { f32Blob } from "./vector.ts";

export const LAYERS = ["L1", "L2", "L3"] as const;
export type Layer = (typeof LAYERS)[number];

/**
 * A conversation with one partner on one channel. `thread` 0 is the channel's own conversation
 * with the partner (what a QQ chat or an OpenAI client opens); a new chat started in the console
 * takes the next number, so one partner may have several conversations on one channel.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    channel: text("channel").notNull(),
    partner: text("partner").notNull(),
    thread: integer("thread").notNull().default(0),
    title: text("title"),
    /**
     * The caller's own name for this conversation, when its protocol has one (an A2A
     * `contextId`): the same key of the same partner on the same channel continues it.
     */
    contextKey: text("context_key"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("sessions_channel_partner_thread").on(t.channel, t.partner, t.thread), uniqueIndex("sessions_channel_partner_context").on(t.channel, t.partner, t.contextKey)],
);

/**
 * One turn unit: a message group `[user?, assistant(tool_calls), tool, …]` or a plain message.
 * `layer` says where it lives: L1 (live context), L2 (cold), L3 (distilled; kept for provenance).
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id").notNull(),
    /** Scope key for recall filters: a conversation, project or partner id. */
    conversation: text("conversation").notNull(),
    scope: text("scope", { enum: ["user", "conversation", "project"] })
      .notNull()
      .default("conversation"),
    /**
     * Who alone may recall it: `partner:NAME` or `project:NAME`; null (the default) means the
     * user's, reachable from every chat (DESIGN §3 Scopes). See memory/visibility.ts.
     */
    privateTo: text("private_to"),
    layer: text("layer", { enum: LAYERS }).notNull(),
    /** Chronological order within the session. */
    seq: integer("seq").notNull(),
    time: integer("time").notNull(),
    speaker: text("speaker"),
    role: text("role"),
    /** Id the event had where it came from (an imported message id); unique per conversation. */
    sourceId: text("source_id"),
    /** OpenAI-format messages of the group, as JSON. */
    messages: text("messages").notNull(),
    /** Plain text of the group, for search and scoring. */
    text: text("text").notNull(),
    tokens: integer("tokens").notNull(),
    accessCount: integer("access_count").notNull().default(0),
    lastAccess: integer("last_access"),
    sceneId: text("scene_id"),
    /** When pruning sank the event from L1 to L2 (null for events that never were in L1). */
    sunkAt: integer("sunk_at"),
    /** The turn was stopped by its client midway and this is what had been said: the console shows "(stopped)" with it. */
    stopped: integer("stopped", { mode: "boolean" }),
    embedModel: text("embed_model"),
    embedding: f32Blob("embedding"),
    /** Sparse TF-IDF word vector `{term: weight}` as JSON: the fallback when no dense vector exists. */
    tfidf: text("tfidf"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("events_session_seq").on(t.sessionId, t.seq),
    index("events_layer_time").on(t.layer, t.time),
    index("events_conversation_time").on(t.conversation, t.time),
    // User-wide memories are visible from every conversation: recall looks them up by scope.
    index("events_scope").on(t.scope),
    // The vector channel counts a layer's events by model to choose exact scan or index: with this
    // index the count reads index entries instead of every row (each carrying its 2 KB vector).
    // Partial: events without a vector (all imports under the fallback) cost the import nothing.
    index("events_layer_vector_model").on(t.layer, t.embedModel).where(sql`${t.embedModel} IS NOT NULL`),
    uniqueIndex("events_conversation_source").on(t.conversation, t.sourceId),
    // The active window's cold events in steady use (standing-cold.ts): a seek to the few with
    // enough accesses, newest-used first, where without it every turn walked all cold events
    // (100k: ~40 ms an injection).
    index("events_layer_access").on(t.layer, t.accessCount, t.lastAccess),
    check("events_layer_valid", sql`${t.layer} IN ('L1', 'L2', 'L3')`),
  ],
);

/**
 * A unit of content with a stable id. Exactly one holder at any time: the `holder` column is
 * single-valued and NOT NULL, so a block can never be in two layers or in none. Moving a block
 * between layers is an UPDATE of `holder`, never a copy.
 */
export const blocks = sqliteTable(
  "blocks",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id").references(() => events.id),
    kind: text("kind", { enum: ["text", "image", "audio", "page", "file"] }).notNull(),
    holder: text("holder", { enum: LAYERS }).notNull(),
    content: text("content"),
    /** Byte size of the payload in block_data, when there is one. */
    size: integer("size"),
    mime: text("mime"),
    sha256: text("sha256"),
    embedModel: text("embed_model"),
    embedding: f32Blob("embedding"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("blocks_event").on(t.eventId),
    index("blocks_holder").on(t.holder),
    // Image neighbours are searched among image blocks only: without it every text block is read.
    // Partial: text blocks (one per event) are not in it, so writing them costs nothing more.
    index("blocks_image_model").on(t.embedModel).where(sql`${t.kind} = 'image'`),
    check("blocks_holder_valid", sql`${t.holder} IN ('L1', 'L2', 'L3')`),
  ],
);

/** Binary payloads of blocks (images, files), kept apart so scans of `blocks` stay small. */
export const blockData = sqliteTable("block_data", {
  blockId: text("block_id")
    .primaryKey()
    .references(() => blocks.id, { onDelete: "cascade" }),
  bytes: blob("bytes", { mode: "buffer" }).notNull(),
});

export const TRIPLE_KINDS = ["preference", "decision", "convention", "entity", "todo", "correction", "event"] as const;
export const EVIDENCE_LEVELS = ["verbatim", "pointer", "manual", "summary"] as const;

/** An L3 fact: subject and object are blocks; provenance points at the words it came from. */
export const triples = sqliteTable(
  "triples",
  {
    id: text("id").primaryKey(),
    subjectBlockId: text("subject_block_id")
      .notNull()
      .references(() => blocks.id),
    predicate: text("predicate").notNull(),
    objectBlockId: text("object_block_id")
      .notNull()
      .references(() => blocks.id),
    kind: text("kind", { enum: TRIPLE_KINDS }).notNull(),
    scope: text("scope").notNull(),
    /** As `events.private_to`: null is the user's, reachable from every chat. */
    privateTo: text("private_to"),
    confidence: real("confidence").notNull(),
    importance: real("importance").notNull(),
    revision: integer("revision").notNull().default(1),
    evidence: text("evidence", { enum: EVIDENCE_LEVELS }).notNull(),
    sourceSession: text("source_session"),
    sourceTurn: integer("source_turn"),
    sourceEventId: text("source_event_id"),
    /** Verbatim excerpt of the source (bounded length) and its sha256, to detect drift. */
    excerpt: text("excerpt"),
    excerptHash: text("excerpt_hash"),
    accessCount: integer("access_count").notNull().default(0),
    citedCount: integer("cited_count").notNull().default(0),
    lastAccess: integer("last_access"),
    embedModel: text("embed_model"),
    embedding: f32Blob("embedding"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("triples_scope").on(t.scope), index("triples_source_event").on(t.sourceEventId)],
);

/** Old snapshots of a triple, one per revision (the last 20 are kept). */
export const tripleRevisions = sqliteTable(
  "triple_revisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tripleId: text("triple_id")
      .notNull()
      .references(() => triples.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    snapshot: text("snapshot").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("triple_revisions_triple_revision").on(t.tripleId, t.revision)],
);

/** A recurring situation: a weighted fingerprint (channel, partner, tools, topic, time of day). */
export const scenes = sqliteTable("scenes", {
  id: text("id").primaryKey(),
  /** Declared key (`chan:qq/peer:group_1`) or a key derived from the fingerprint. */
  key: text("key").notNull().unique(),
  declared: integer("declared", { mode: "boolean" }).notNull().default(false),
  features: text("features").notNull(),
  occurrences: integer("occurrences").notNull().default(1),
  strength: real("strength").notNull().default(0),
  lastSeen: integer("last_seen").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** What recall injected into a turn, for the audit view (the last 1000 are kept). */
export const injectionAudit = sqliteTable(
  "injection_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    time: integer("time").notNull(),
    sessionId: text("session_id"),
    query: text("query").notNull(),
    ids: text("ids").notNull(),
    counts: text("counts").notNull(),
    chars: integer("chars").notNull(),
  },
  (t) => [index("injection_audit_time").on(t.time)],
);

/** Non-secret settings, as JSON values. */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** API keys and other secrets: written through the API, never returned by it. */
export const secrets = sqliteTable("secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Console logins, kept across daemon restarts. Only a keyed hash of the cookie's value is
 * stored (a copy of the database lets no one in); a row dies at `expires_at`, on logout, and
 * when the admin token is reset.
 */
export const consoleSessions = sqliteTable(
  "console_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("console_sessions_expires").on(t.expiresAt)],
);

/**
 * Turns waiting for their caller's tool results (an OpenAI client's tool_calls), one per session:
 * the paused round as JSON (src/kernel/paused-turns.ts), so a daemon restart between the answer
 * and the results loses nothing. The row goes when the results come or the session moves on.
 */
export const pausedTurns = sqliteTable("paused_turns", {
  sessionId: text("session_id")
    .primaryKey()
    .references(() => sessions.id),
  round: text("round").notNull(),
  createdAt: integer("created_at").notNull(),
});

/**
 * Per-app API keys (`homed key create`, `/api/keys`): each lets one app reach `/v1` (and `/mcp`)
 * and nothing else. Only the key's SHA-256 is stored: a key is 256 random bits, so no slow hash
 * is needed, and a copy of the database lets no one in. `scopes`: comma-separated (`v1,mcp`).
 */
export const appKeys = sqliteTable("app_keys", {
  name: text("name").primaryKey(),
  keyHash: text("key_hash").notNull().unique(),
  partner: text("partner"),
  scopes: text("scopes").notNull(),
  createdAt: integer("created_at").notNull(),
  /** When a request last came with the key (ms), to a minute: what tells a key in use from a forgotten one. */
  lastUsedAt: integer("last_used_at"),
});

/**
 * A history import in progress. Its messages are staged (below) and in the search tables under
 * event rowids from `first_rowid` on, a range no live event reaches (see src/store/import-staging.ts),
 * and become events in one last step. `state`: 'staging' until then, 'visible' after (only the
 * staging rows are left to drop). `pid`/`host` let the next start tell a crashed import from a
 * running one.
 */
export const importRuns = sqliteTable("import_runs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  firstRowid: integer("first_rowid").notNull(),
  state: text("state", { enum: ["staging", "visible"] }).notNull(),
  pid: integer("pid").notNull(),
  host: text("host").notNull(),
  startedAt: integer("started_at").notNull(),
});

/** Staged events of imports: the columns of `events` an import writes, keyed by their future rowid. */
export const importEvents = sqliteTable(
  "import_events",
  {
    eventRowid: integer("event_rowid").primaryKey(),
    id: text("id").notNull(),
    sessionId: text("session_id").notNull(),
    conversation: text("conversation").notNull(),
    scope: text("scope").notNull(),
    privateTo: text("private_to"),
    layer: text("layer").notNull(),
    seq: integer("seq").notNull(),
    time: integer("time").notNull(),
    speaker: text("speaker"),
    role: text("role"),
    sourceId: text("source_id"),
    messages: text("messages").notNull(),
    text: text("text").notNull(),
    tokens: integer("tokens").notNull(),
    embedModel: text("embed_model"),
    embedding: blob("embedding"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("import_events_session_seq").on(t.sessionId, t.seq)],
);

/** Staged image blocks of imports, found by their event's future rowid (a text block is made from its event when the import becomes visible). */
export const importBlocks = sqliteTable(
  "import_blocks",
  {
    eventRowid: integer("event_rowid").notNull(),
    id: text("id").notNull(),
    eventId: text("event_id").notNull(),
    kind: text("kind").notNull(),
    holder: text("holder").notNull(),
    content: text("content"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventRowid, t.id] })],
);

/** Every message id an import has read so far (staged or already present): a second one is a duplicate line. */
export const importSeen = sqliteTable(
  "import_seen",
  {
    run: integer("run").notNull(),
    id: text("id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.run, t.id] })],
);

/**
 * Which daemon runs a background job (cooling) when several share one libSQL server: the
 * holder renews its lease each run; another may take it once it has expired or been released.
 */
export const jobLeases = sqliteTable("job_leases", {
  job: text("job").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

/**
 * One row per embedding model whose event vectors have their own ANN table (src/store/vector-spaces.ts):
 * `vectors` names a table `(rowid = events.rowid, embedding F32_BLOB(dimension))` with a DiskANN
 * index, kept in step with `events.embedding` by triggers. A DiskANN index holds one width, so
 * each model gets its own; `events.embedding` itself holds any width.
 */
export const vectorSpaces = sqliteTable("vector_spaces", {
  model: text("model").primaryKey(),
  dimension: integer("dimension").notNull(),
  vectors: text("vectors").notNull(),
  createdAt: integer("created_at").notNull(),
});

/**
 * Segments of the BM25 search index of events (search-segments.ts): each holds some documents'
 * postings, written once and never changed; small ones are merged into larger ones. `state`:
 * 'live' (searched) or 'staged' (an import's, made live with its events). Per segment: its
 * documents' event rowids and lengths per channel (postings-codec.ts) and token totals per
 * channel (BM25's average length); its sorted terms are in `search_segment_terms`. The postings
 * themselves are in `search_postings` (term, segment) → bytes, a WITHOUT ROWID table written in
 * the migration (drizzle cannot declare one).
 */
export const searchSegments = sqliteTable("search_segments", {
  // AUTOINCREMENT: an id is never used twice, so a segment's documents can be cached by id.
  id: integer("id").primaryKey({ autoIncrement: true }),
  state: text("state").notNull(),
  importRun: integer("import_run"),
  level: integer("level").notNull(),
  docs: integer("docs").notNull(),
  tokensWords: integer("tokens_words").notNull(),
  tokensTrigrams: integer("tokens_trigrams").notNull(),
  tokensBigrams: integer("tokens_bigrams").notNull(),
  rowids: blob("rowids", { mode: "buffer" }).notNull(),
  lengths: blob("lengths", { mode: "buffer" }).notNull(),
});

/**
 * A segment's sorted term list (to read or delete its postings by primary key), in chunks of
 * TERMS_PER_CHUNK consecutive terms as a JSON array each (src/search/segment-terms.ts): chunk c
 * holds terms c·TERMS_PER_CHUNK onwards. Kept out of the segment's row since migration 0023: an
 * UPDATE of many segment rows (publishing an import, retiring a merge's sources) held every
 * updated row whole until the commit, term list (~0.8 MB at 65k terms) included. A rowid table:
 * its rows (~20 KB) are far above the size WITHOUT ROWID suits, where interior pages carry keys.
 */
export const searchSegmentTerms = sqliteTable(
  "search_segment_terms",
  {
    segment: integer("segment").notNull(),
    chunk: integer("chunk").notNull(),
    terms: text("terms").notNull(),
  },
  (t) => [primaryKey({ columns: [t.segment, t.chunk] })],
);
