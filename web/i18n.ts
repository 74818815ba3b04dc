// The console's words in English and Simplified Chinese, and the chosen language.
//
// Every string a person reads comes from STRINGS below, one section per page. An entry is
// [English, 中文]; each is text with {name} placeholders or a function of the parameters (for
// plurals). A new page adds its own section (e.g. `keys: { title: ["Keys", "密钥"] }`), calls
// t("keys.title"), and lists its route in main.tsx. t() takes only keys that exist (TextKey), so a
// missing word fails the type check; tests/web/i18n.test.ts also fails on a missing or
// untranslated Chinese entry, or placeholders that differ.
//
// Hand-written rather than a library: the console needs lookup, {name} interpolation and two
// plural forms; the browser's Intl does dates, numbers and plural rules. i18next (~40 KB) or
// Lingui (a compile step) would add more than this file is.

export const LANGUAGES: readonly { id: LanguageId; name: string }[] = [
  { id: "en", name: "English" },
  { id: "zh-CN", name: "中文" },
];
export type LanguageId = "en" | "zh-CN";
const STORAGE_KEY = "homed.lang";

/** The parameters of a text: {name} placeholders; counted words take numbers. */
export type Params = Record<string, unknown>;
type Counts = Record<string, number>;
/** One side of an entry: text with {name} placeholders, or a function of the counts (for plurals). */
type Side = string | ((p: Counts) => string);
type Entry = readonly [english: Side, chinese: Side];

const plural = (n: number | undefined, one: string, many: string) => (n === 1 ? one : many);

export const STRINGS = {
  shell: {
    skip: ["Skip to content", "跳到正文"],
    loading: ["Loading the console…", "正在加载控制台…"],
    logout: ["Log out", "退出登录"],
    menu: ["Menu", "菜单"],
    navLabel: ["Console", "控制台"],
    language: ["Language", "语言"],
    cannotShow: ["Cannot show this page: {message}", "无法显示此页面：{message}"],
    notAnswering: ["homed is not answering at {origin}: is the daemon running?", "{origin} 上的 homed 没有响应：守护进程在运行吗？"],
    retry: ["Try again", "重试"],
  },
  nav: {
    chat: ["Chat", "对话"],
    providers: ["Providers", "模型服务"],
    memory: ["Memory", "记忆"],
    context: ["Context", "上下文"],
    scenes: ["Scenes", "场景"],
    audit: ["Recall audit", "回忆审计"],
    plugins: ["Plugins", "插件"],
    keys: ["App keys", "应用密钥"],
    doctor: ["Doctor", "诊断"],
  },
  login: {
    title: ["Log in to homed", "登录 homed"],
    tokenLabel: ["Admin token", "管理员令牌"],
    submit: ["Log in", "登录"],
    wrong: ["That is not the admin token", "这不是管理员令牌"],
    tooMany: ["Too many wrong tokens: try again in a minute", "错误次数太多：请一分钟后再试"],
    where: ["On its first start homed wrote an admin token, readable only by you, to:", "homed 首次启动时把管理员令牌写到了下面这个文件（只有你能读）："],
    copyBefore: ["Copy it from there (", "从那里复制（"],
    copyAfter: [") and paste it below. The console keeps a session cookie, never the token.", "），粘贴到下面。控制台只保存会话 Cookie，从不保存令牌。"],
    lostBefore: ["Lost it? Run ", "丢了？运行 "],
    lostAfter: [" and restart the daemon.", "，然后重启守护进程。"],
  },
  chat: {
    heading: ["Chat", "对话"],
    conversations: ["Conversations", "对话列表"],
    newWith: ["New conversation with", "新对话，对象"],
    partnerPlaceholder: ["e.g. me, or a project name", "例如：我，或项目名"],
    start: ["Start", "开始"],
    conversation: ["Conversation", "对话内容"],
    missing: ["That conversation does not exist.", "这个对话不存在。"],
    startLeft: ["Start a conversation on the left.", "在左侧开始一个对话。"],
    message: ["Message", "消息"],
    messagePlaceholder: ["Message…", "输入消息…"],
    send: ["Send", "发送"],
    stop: ["Stop", "停止"],
    stopped: ["(stopped)", "（已停止）"],
    typing: ["homed is thinking…", "homed 正在思考…"],
    inspector: ["context inspector →", "查看上下文 →"],
    find: ["Find a conversation", "查找对话"],
    findPlaceholder: ["name, partner or channel", "名称、对象或渠道"],
    noMatch: ["No conversation matches.", "没有匹配的对话。"],
    rename: ["Rename", "重命名"],
    delete: ["Delete", "删除"],
    deleteTitle: ["Delete this conversation", "删除这个对话"],
    deleteKeeps: [
      "It leaves the list. What was said in it stays in memory as history: recall still finds it in this partner's other chats.",
      "它会从列表中移除。其中说过的话作为历史留在记忆里：与这个对象的其他对话仍能想起。",
    ],
    deleteForget: ["Also forget everything said in it (cannot be undone)", "同时忘掉其中说过的一切（无法撤销）"],
    deleteConfirm: ["Delete conversation", "删除对话"],
    name: ["Name", "名称"],
    save: ["Save", "保存"],
    cancel: ["Cancel", "取消"],
    noProvider: ["No model provider is set up yet, so homed cannot answer. ", "还没有设置模型服务，homed 无法回答。"],
    noProviderLink: ["Add a provider on the Providers page", "去“模型服务”页面添加一个"],
    noProviderAfter: [", then send your message again.", "，然后重新发送消息。"],
    reasoning: ["reasoning", "思考过程"],
    tool: ["tool · {name}", "工具 · {name}"],
    toolPending: ["tool · …", "工具 · …"],
    toolDone: ["tool · {name} ✓", "工具 · {name} ✓"],
    toolDenied: ["tool · {name} (denied)", "工具 · {name}（已拒绝）"],
    image: ["[image]", "[图片]"],
    recalled: [(p: Counts) => `remembered ${num(p.n)} ${plural(p.n, "thing", "things")} (${num(p.chars)} characters)`, "想起 {n} 条记忆（{chars} 个字符）"],
    recalledNothing: ["remembered nothing for this message", "这条消息没有想起相关记忆"],
    restored: [(p: Counts) => ` · ${num(p.n)} earlier ${plural(p.n, "message", "messages")} back in the conversation`, " · {n} 条早先的消息回到了对话中"],
    recallQuery: ["looked for: ", "查找："],
    recallNone: ["nothing injected", "没有注入任何记忆"],
    recallIds: ["ids: ", "编号："],
  },
  providers: {
    title: ["Providers", "模型服务"],
    help: [
      "Any OpenAI-compatible endpoint. Keys are write-only: once saved, no page or API response shows them again.",
      "任何兼容 OpenAI 的接口都可以。密钥只写不读：保存后，任何页面或 API 都不会再显示。",
    ],
    none: ["No provider yet: add one below to start chatting.", "还没有模型服务：在下面添加一个就能开始对话。"],
    colName: ["Name", "名称"],
    colBaseUrl: ["Base URL", "接口地址"],
    colModel: ["Model", "模型"],
    colKey: ["Key", "密钥"],
    active: ["active", "使用中"],
    keySet: ["set", "已设置"],
    use: ["Use", "使用"],
    edit: ["Edit", "编辑"],
    fromEnv: ["from environment", "来自环境变量"],
    delete: ["Delete", "删除"],
    confirmDelete: ["Delete provider {name}?", "删除模型服务 {name}？"],
    add: ["Add a provider", "添加模型服务"],
    editTitle: ["Edit {name}", "编辑 {name}"],
    preset: ["Preset", "预设"],
    custom: ["Custom", "自定义"],
    name: ["Name", "名称"],
    baseUrl: ["Base URL", "接口地址"],
    model: ["Model", "模型"],
    apiKey: ["API key", "API 密钥"],
    keyReplace: ["set — type to replace", "已设置——输入新值以替换"],
    keyNotSet: ["not set", "未设置"],
    save: ["Save", "保存"],
    addButton: ["Add provider", "添加"],
    test: ["Test connection", "测试连接"],
    firstAdded: ["{name} is set up: homed can answer now. ", "{name} 已设置好，homed 现在可以回答了。"],
    startChat: ["Start a chat →", "开始对话 →"],
    fetchModels: ["List models", "获取模型列表"],
    fetchingModels: ["Asking the provider…", "正在询问模型服务…"],
    modelsFound: [(p: Counts) => `${num(p.n)} ${plural(p.n, "model", "models")}: pick one in the Model field`, "找到 {n} 个模型：在“模型”栏里选择"],
    modelsFailed: ["Cannot list models: {details}", "无法获取模型列表：{details}"],
    cancel: ["Cancel", "取消"],
    testing: ["Testing…", "正在测试…"],
    connected: ["Connected in {ms} ms — {model} replied: {reply}", "连接成功，用时 {ms} 毫秒——{model} 回复：{reply}"],
    failed: ["Failed after {ms} ms: {details}", "{ms} 毫秒后失败：{details}"],
  },
  memory: {
    title: ["Memory", "记忆"],
    l1: ["L1 live", "L1 当前"],
    l2: ["L2 cold", "L2 冷存"],
    l3: ["L3 facts", "L3 事实"],
    embedder: ["Embedder", "向量模型"],
    storage: ["Storage", "存储"],
    tokens: ["{n} tokens", "{n} 个 token"],
    sourceEvents: ["{n} source events", "{n} 个来源事件"],
    dimensions: ["{n} dimensions", "{n} 维"],
    coverage: ["{embedded} of {events} memories have its vectors", "{events} 条记忆中 {embedded} 条已有其向量"],
    imageCoverage: ["images by {model}: {embedded} of {images} have its vectors", "图片由 {model} 嵌入：{images} 张中 {embedded} 张已有其向量"],
    fallbackNote: ["fallback: recall matches words and characters only — install a model (", "后备嵌入：检索只按词和字匹配——请安装模型（"],
    fallbackNoteAfter: [") or use an endpoint below", "）或使用下方的接口"],
    embedSetup: ["Use an OpenAI-compatible embedder", "使用 OpenAI 兼容的嵌入接口"],
    embedUrl: ["Base URL", "基础 URL"],
    embedModel: ["Model", "模型"],
    embedKey: ["API key (optional)", "API 密钥（可选）"],
    embedDim: ["Dimensions (optional)", "维度（可选）"],
    embedProbe: ["Probe", "测试"],
    embedProbing: ["Embedding one sentence…", "正在嵌入一句话…"],
    embedSave: ["Save", "保存"],
    embedPending: [
      "Saved in homed.json: {model} at {url}, used from the next start — restart homed. In use now: {active}",
      "已保存到 homed.json：{model}（{url}），下次启动时启用——请重启 homed。当前在用：{active}",
    ],
    embedSaved: [
      "Saved: {model} ({dim} dimensions) in homed.json. Restart homed to use it; memories are then re-embedded in the background. In use now: {active}",
      "已保存到 homed.json：{model}（{dim} 维）。请重启 homed 以启用；启用后已有记忆会在后台重新嵌入。当前在用：{active}",
    ],
    embedOverridden: [" — but homed was started with -embed-url, which wins: start it without that flag.", "——但 homed 启动时带了 -embed-url，它优先：请去掉该参数再启动。"],
    embedProbed: [
      "{model} answered: {dim} dimensions in {ms} ms. Start homed with: {flags} (the key in HOMED_EMBED_API_KEY or -embed-key-file)",
      "{model} 已应答：{dim} 维，用时 {ms} 毫秒。启动 homed 时加上：{flags}（密钥放在 HOMED_EMBED_API_KEY 或 -embed-key-file）",
    ],
    growth: ["Memory growth (events written, by the layer they are in now)", "记忆增长（写入的事件，按当前所在层）"],
    growthShort: [
      (p: Counts) => `Written so far, over ${num(p.days)} ${plural(p.days, "day", "days")}: ${num(p.l1)} live events, ${num(p.l2)} in history, ${num(p.l3)} facts' sources.`,
      "到目前为止（{days} 天内）写入：当前对话 {l1} 条，历史 {l2} 条，事实来源 {l3} 条。",
    ],
    layer_memories: ["Facts and history", "事实与历史"],
    layer_L3: ["Facts (L3)", "事实（L3）"],
    layer_L2: ["History (L2)", "历史（L2）"],
    layer_L1: ["Live conversation, raw events (L1)", "当前对话的原始事件（L1）"],
    layer_all: ["Everything", "全部"],
    showRaw: ["Show the raw live events (L1)", "查看当前对话的原始事件（L1）"],
    badgeL1: ["L1 live", "L1 当前"],
    badgeL2: ["L2 history", "L2 历史"],
    badgeL3: ["L3 fact", "L3 事实"],
    id: ["id ", "编号 "],
    search: ["Search", "搜索"],
    searchPlaceholder: ["words or names", "词语或名字"],
    layer: ["Layer", "层"],
    scope: ["Scope", "范围"],
    any: ["any", "任意"],
    scopeConversation: ["conversation", "对话"],
    scopeUser: ["user", "用户"],
    scopeProject: ["project", "项目"],
    conversation: ["Conversation", "对话"],
    from: ["From", "从"],
    to: ["To", "到"],
    noMatch: ["No memory matches.", "没有匹配的记忆。"],
    loading: ["Loading…", "加载中…"],
    details: ["evidence and history", "证据与历史"],
    sourceIds: ["source ids: {ids}", "来源编号：{ids}"],
    saidHere: ["none (said here)", "无（在此处说的）"],
    evidenceCheck: ["evidence check: {check}", "证据核对：{check}"],
    fromEventSession: ["from event {event}, session {session}", "来自事件 {event}，会话 {session}"],
    noRevisions: ["no earlier revisions", "没有更早的修订"],
    revision: ["revision {from} → {to} · {when}", "修订 {from} → {to} · {when}"],
    noChange: ["no visible change", "没有可见变化"],
    evidence: ["evidence {value}", "证据 {value}"],
    confidence: ["confidence {value}", "置信度 {value}"],
    revisionN: ["revision {value}", "修订 {value}"],
    fromEvent: ["from event {value}", "来自事件 {value}"],
    session: ["session {value}", "会话 {value}"],
    speaker: ["speaker {value}", "说话人 {value}"],
    sourceMessage: ["source message {value}", "来源消息 {value}"],
    recalledTimes: ["recalled {n}×", "被想起 {n} 次"],
    score: [" · score {score} via {channels}", " · 得分 {score}，来自 {channels}"],
    deleteLabel: ["Delete memory {id}", "删除记忆 {id}"],
    delete: ["Delete", "删除"],
    confirmDelete: ["Delete this memory for good?\n\n{text}", "永久删除这条记忆？\n\n{text}"],
    cannotDelete: ["Cannot delete {id}: {message}", "无法删除 {id}：{message}"],
    deleted: ["Deleted {id}.", "已删除 {id}。"],
    importForm: ["Import history", "导入历史"],
    importLabel: ["Import history (JSON Lines)", "导入历史（JSON Lines）"],
    skipInvalid: [" skip invalid lines", " 跳过无效行"],
    import: ["Import", "导入"],
    importProgress: ["Import progress", "导入进度"],
    importing: ["Importing {file}…", "正在导入 {file}…"],
    importingN: ["Importing {file}: {done} of {total} messages", "正在导入 {file}：{done} / {total} 条消息"],
    imported: ["Imported {file}: {added} added, {present} already present, {skipped} invalid skipped.", "已导入 {file}：新增 {added} 条，已有 {present} 条，跳过无效 {skipped} 条。"],
  },
  /**
   * The daemon's errors by code (src/errors/table.ts), in the reader's words; a code not listed is
   * shown as the daemon sent it. web/errors.ts adds the daemon's own words after the codes whose
   * message carries the details (which name, which field, which limit).
   */
  errors: {
    withDetails: ["{text}: {details}", "{text}：{details}"],
    invalid_json: ["The request is not valid JSON", "请求不是有效的 JSON"],
    invalid_request: ["The daemon refused the request", "守护进程拒绝了这个请求"],
    invalid_history: ["The history cannot be imported", "无法导入这份历史"],
    unauthorized: ["Not logged in, or the login has expired", "未登录，或登录已过期"],
    cross_site: ["Refused: the request did not come from this console", "已拒绝：请求不是来自这个控制台"],
    not_found: ["It no longer exists", "它已不存在"],
    session_not_found: ["That conversation no longer exists", "这个对话已不存在"],
    provider_not_found: ["That provider no longer exists", "这个模型服务已不存在"],
    key_not_found: ["That key no longer exists", "这个密钥已不存在"],
    unknown_plugin: ["There is no such plugin", "没有这个插件"],
    ambiguous: ["Several memories match", "有多条记忆匹配"],
    key_exists: ["A key with that name exists already", "已有同名的密钥"],
    too_large: ["Too large for the daemon to take", "太大了，守护进程无法接收"],
    rate_limited: ["Too many attempts: try again in a minute", "尝试次数太多：请一分钟后再试"],
    no_provider: ["No model provider is set up yet", "还没有设置模型服务"],
    provider_rate_limited: ["The model provider is limiting requests", "模型服务正在限流"],
    provider_server_error: ["The model provider failed", "模型服务出错了"],
    provider_bad_request: ["The model provider refused the request", "模型服务拒绝了这个请求"],
    provider_network: ["The model provider cannot be reached", "无法连接模型服务"],
    provider_aborted: ["The model call was cancelled", "模型调用已取消"],
    provider_bad_response: ["The model provider's answer cannot be read", "无法读取模型服务的回答"],
    provider_timeout: ["The model provider did not answer in time", "模型服务没有按时回答"],
    import_failed: ["The import failed", "导入失败"],
    embedder_unreachable: ["The embedding endpoint did not answer, so nothing was saved", "嵌入接口没有应答，所以没有保存"],
    internal: ["The daemon failed: its log says why", "守护进程出错了：原因见它的日志"],
  },
  /** Words the daemon sends as values (evidence levels and checks, scopes, fact kinds), shown in the reader's language. */
  vocab: {
    verbatim: ["verbatim", "原话"],
    pointer: ["pointer", "指向原文"],
    manual: ["manual", "手动"],
    summary: ["summary", "摘要"],
    verified: ["verified", "已核实"],
    excerpt_altered: ["excerpt altered", "摘录被改动"],
    source_changed: ["source changed", "原文已改变"],
    source_unavailable: ["source unavailable", "原文不可用"],
    no_excerpt: ["no excerpt", "没有摘录"],
    conversation: ["conversation", "对话"],
    user: ["user", "用户"],
    project: ["project", "项目"],
    fact: ["fact", "事实"],
    preference: ["preference", "偏好"],
    correction: ["correction", "更正"],
    event: ["event", "事件"],
  },
  context: {
    title: ["Context inspector", "上下文查看"],
    sessions: ["Sessions", "会话"],
    none: ["No sessions yet.", "还没有会话。"],
    used: ["{used} of {budget} tokens ({pct}) — pruning starts above {threshold}× the budget", "已用 {used} / {budget} 个 token（{pct}）——超过预算的 {threshold} 倍开始裁剪"],
    toolTokens: [
      "Tool definitions take {n} tokens of every request; history is rendered in what they, the system prompt and injected memory leave.",
      "每次请求的工具定义占 {n} 个 token；历史对话只能用工具定义、系统提示和注入的记忆剩下的空间。",
    ],
    budgetUse: ["Budget use", "预算用量"],
    budget: ["budget", "预算"],
    chartTitle: ["Tokens said so far vs. the budget, per event", "累计 token 与预算（按事件）"],
    chartTitleUnder: ["Tokens said so far, per event (the budget, {budget}, is far above)", "累计 token（按事件；预算 {budget} 远高于此）"],
    said: ["tokens said", "累计 token"],
    chartSummary: ["{total} tokens said in {n} events; budget {budget}", "{n} 个事件共 {total} 个 token；预算 {budget}"],
    live: ["Live (L1): {n} events", "当前（L1）：{n} 个事件"],
    scoredAgainst: ["Scores: relevance to the latest message, “{text}”.", "得分：与最新消息“{text}”的相关度。"],
    noScore: ["No user message yet to score against.", "还没有用户消息可用来评分。"],
    colTime: ["Time", "时间"],
    colMessages: ["Messages", "消息"],
    colTokens: ["Tokens", "Token 数"],
    colScore: ["Score", "得分"],
    colPinned: ["Pinned", "固定"],
    colText: ["Text", "内容"],
    pinned: ["pinned", "已固定"],
    sank: ["Sank: {n} events", "已沉入：{n} 个事件"],
    sankLine: [" · said {said}", " · 说于 {said}"],
    sankAt: [" · sank {at}", " · 沉入于 {at}"],
    tokens: [" · {n} tokens", " · {n} 个 token"],
    lastRecalled: [" · last recalled {at}", " · 上次被想起 {at}"],
    nothingSank: ["Nothing has sunk: the whole conversation still fits.", "没有沉入的事件：整个对话都还放得下。"],
  },
  audit: {
    title: ["Recall audit", "回忆审计"],
    help: ["Each turn's recall: the query, how many memories from each layer were injected, and their ids.", "每轮的回忆：查询内容、每层注入了多少条记忆，以及它们的编号。"],
    none: ["No turns recalled anything yet.", "还没有哪一轮想起过记忆。"],
    chart: ["Characters injected per turn", "每轮注入的字符数"],
    chars: ["chars", "字符"],
    turns: ["{n} turns", "{n} 轮"],
    colTime: ["Time", "时间"],
    colQuery: ["Query", "查询"],
    colInjected: ["Injected", "注入"],
    colChars: ["Chars", "字符数"],
    colIds: ["Ids", "编号"],
    latency: ["Recall latency", "回忆延迟"],
    latencyHelp: ["Runs the last 100 audited queries again through cold-context search (reading only) and times each.", "把最近 100 条审计过的查询再跑一遍冷上下文搜索（只读），并逐条计时。"],
    measure: ["Measure recall latency", "测量回忆延迟"],
    measuring: ["Measuring…", "正在测量…"],
    noQueries: ["No audited queries to replay yet.", "还没有可重放的审计查询。"],
    stats: ["{n} queries · p50 {p50} ms · p95 {p95} ms · max {max} ms (embedder {embedder})", "{n} 条查询 · p50 {p50} 毫秒 · p95 {p95} 毫秒 · 最长 {max} 毫秒（向量模型 {embedder}）"],
    latencyChart: ["Recall latency distribution (ms, by percentile)", "回忆延迟分布（毫秒，按百分位）"],
  },
  scenes: {
    title: ["Scenes", "场景"],
    help: [
      "A scene is a situation that recurs (same channel, partner, tools, topic, time of day). Recall leans toward what happened in the current scene.",
      "场景是反复出现的情境（同一渠道、对象、工具、话题、时段）。回忆会偏向当前场景里发生过的事。",
    ],
    none: ["No scene yet: a situation becomes a scene the second time it happens.", "还没有场景：同一情境第二次出现时就成为场景。"],
    chart: ["Strength over time (halves every {days} days idle; right of today is where it is heading)", "强度随时间的变化（闲置每 {days} 天减半；今天右侧是走势）"],
    chartSummary: ["{name}: {strength} now", "{name}：当前 {strength}"],
    colScene: ["Scene", "场景"],
    colKind: ["Kind", "类型"],
    colOccurrences: ["Occurrences", "出现次数"],
    colStrength: ["Strength now", "当前强度"],
    colLastSeen: ["Last seen", "最近出现"],
    declared: ["declared", "声明的"],
    recognised: ["recognised", "识别出的"],
    id: ["id", "编号"],
  },
  keys: {
    title: ["App keys", "应用密钥"],
    help: [
      "A key lets one app reach /v1 (OpenAI clients) and /mcp (MCP clients) as its own partner, and nothing else: never this console or /api. Last used is kept to the minute.",
      "一个密钥让一个应用以它自己的身份访问 /v1（OpenAI 客户端）和 /mcp（MCP 客户端），别的都不行：永远进不了这个控制台或 /api。“最近使用”精确到分钟。",
    ],
    none: ["No app keys yet: create one below for each app that should reach homed.", "还没有应用密钥：在下面为每个要访问 homed 的应用创建一个。"],
    newKey: ["New key", "新密钥"],
    keyFor: ["Key for ", "密钥："],
    copyNow: ["Copy it now: it is shown this once. homed keeps only its hash.", "请现在复制：它只显示这一次。homed 只保存它的哈希。"],
    key: ["Key", "密钥"],
    copy: ["Copy key", "复制密钥"],
    copied: ["Copied.", "已复制。"],
    copyByHand: ["Select the key and copy it by hand.", "请选中密钥手动复制。"],
    useOpenAI: ["OpenAI clients: base URL ", "OpenAI 客户端：接口地址填 "],
    useMcp: [", this key as the API key. MCP clients: ", "，API 密钥填这个密钥。MCP 客户端：地址 "],
    useHeader: [" with the header ", "，加请求头 "],
    useEnd: [".", "。"],
    create: ["Create a key", "创建密钥"],
    createButton: ["Create key", "创建"],
    name: ["Name", "名称"],
    nameRule: ["1 to 64 letters, digits, '.', '_' or '-'", "1 到 64 个字母、数字、“.”、“_”或“-”"],
    partner: ["Partner", "对象"],
    partnerPlaceholder: ["the key's name", "默认为密钥名称"],
    opens: ["Opens", "可访问"],
    chooseScope: ["Choose what the key opens: /v1, /mcp or both.", "请选择密钥可访问的接口：/v1、/mcp 或两者。"],
    confirmRevoke: ["Revoke the key {name}? The app holding it is refused from its next request on.", "吊销密钥 {name}？持有它的应用从下一次请求起将被拒绝。"],
    never: ["never", "从未"],
    revoke: ["Revoke", "吊销"],
    revokeLabel: ["Revoke {name}", "吊销 {name}"],
    colName: ["Name", "名称"],
    colPartner: ["Partner", "对象"],
    colOpens: ["Opens", "可访问"],
    colCreated: ["Created", "创建时间"],
    colLastUsed: ["Last used", "最近使用"],
  },
  doctor: {
    title: ["Doctor", "诊断"],
    running: ["Running the deep check…", "正在深度检查…"],
    passed: ["All checks passed in {ms} ms.", "全部检查通过，用时 {ms} 毫秒。"],
    failed: ["Some checks failed ({ms} ms).", "部分检查未通过（{ms} 毫秒）。"],
    run: ["Run deep check", "运行深度检查"],
    healthy: ["The daemon answers and its store responds — homed {version}.", "守护进程有响应，存储正常——homed {version}。"],
    problem: ["The daemon reports a problem: {message}", "守护进程报告了问题：{message}"],
    unknown: ["unknown", "未知"],
    helpBefore: ["The deep check runs what ", "深度检查运行的内容与 "],
    helpAfter: [" runs: the database, migrations, vector and full-text search, jieba, ONNX Runtime and the data folder.", " 相同：数据库、迁移、向量与全文搜索、jieba、ONNX Runtime 和数据目录。"],
  },
  plugins: {
    title: ["Plugins", "插件"],
    noHost: ["This daemon runs no plugin host, so there are no plugins to show.", "这个守护进程没有运行插件宿主，所以没有插件可显示。"],
    none: ["No plugins are configured.", "没有配置插件。"],
    restarts: [(p: Counts) => ` · ${num(p.n)} ${plural(p.n, "restart", "restarts")}`, " · 重启 {n} 次"],
    pid: [" · pid {pid}", " · 进程号 {pid}"],
    exitSignal: [" · last exit signal {signal} at {at}", " · 上次退出：信号 {signal}，{at}"],
    exitCode: [" · last exit code {code} at {at}", " · 上次退出：代码 {code}，{at}"],
    tools: ["tools: {tools}", "工具：{tools}"],
    logTail: ["log tail", "日志末尾"],
    restart: ["Restart", "重启"],
    restartLabel: ["Restart {name}", "重启 {name}"],
    cannotRestart: ["Cannot restart {name}: {message}", "无法重启 {name}：{message}"],
    events: ["Pushed events", "推送的事件"],
    noEvents: ["No plugin has pushed an event since homed started.", "自 homed 启动以来，没有插件推送过事件。"],
    eventSession: [" · for session {session}", " · 发给会话 {session}"],
    urgent: ["urgent", "紧急"],
  },
  // issue 27 — consolememory
  remembers: {
    title: ["What homed remembers", "homed 记得什么"],
    intro: [
      "The facts homed keeps about you, each with where it came from and when a chat last used it. Correct one that is wrong, or forget it.",
      "homed 记住的关于你的事实，每一条都写明出处和上次在对话中用到的时间。记错了可以改正，也可以让它忘掉。",
    ],
    loading: ["Loading what homed remembers…", "正在加载 homed 记得的内容…"],
    empty: ["homed remembers no facts yet. Facts are distilled from chats after they cool down, or written by hand.", "homed 还没有记住任何事实。对话冷却后会从中提炼出事实，也可以手动写入。"],
    fromChatTitled: ["From the chat “{title}” with {partner}, {when}", "来自与 {partner} 的对话“{title}”，{when}"],
    fromChat: ["From a chat with {partner}, {when}", "来自与 {partner} 的对话，{when}"],
    fromImport: ["From imported history ({conversation}), {when}", "来自导入的历史记录（{conversation}），{when}"],
    byHand: ["Written by hand, {when}", "手动写入，{when}"],
    sourceGone: ["Where it came from is no longer kept", "出处已不再保留"],
    wordsSaid: ["The words said:", "原话："],
    lastUsed: ["Last used in a chat {when}", "上次在对话中用到：{when}"],
    cited: [(p: Counts) => `, cited ${num(p.n)} ${plural(p.n, "time", "times")}`, "，被引用 {n} 次"],
    notUsed: ["Not used in a chat yet", "还没有在对话中用到"],
    edit: ["Correct", "改正"],
    editForm: ["Correct this fact", "改正这条事实"],
    subject: ["Who or what", "主体"],
    predicate: ["Relation", "关系"],
    object: ["What", "内容"],
    save: ["Save", "保存"],
    cancel: ["Cancel", "取消"],
    forget: ["Forget", "忘掉"],
    forgetTitle: ["Forget this?", "要忘掉这条吗？"],
    forgetExplain: ["homed will no longer know it or bring it into any chat. This cannot be undone.", "homed 将不再知道这件事，也不会在任何对话中用到它。此操作无法撤销。"],
    keep: ["Keep it", "保留"],
    forgetConfirm: ["Forget it", "忘掉它"],
  },
  recallCards: {
    used: [(p: Counts) => `Used ${num(p.n)} ${plural(p.n, "memory", "memories")}`, "用到了 {n} 条记忆"],
    loading: ["Loading the memories…", "正在加载这些记忆…"],
    gone: ["These memories have been forgotten since.", "这些记忆后来已被忘掉。"],
    sharesWords: ["Shares the words: {words}", "共有的词：{words}"],
    wordSeparator: [", ", "、"],
    closeMeaning: ["Close in meaning to what you asked", "与你问的意思相近"],
    closeSpelling: ["Written much like what you asked", "与你问的写法相近"],
    keptAtHand: ["Kept at hand: important, or said recently in this chat", "常备的记忆：重要，或是这个对话中刚说过的"],
    detail: ["Details for engineers", "技术细节"],
    layer: ["Layer", "层"],
    band: ["Band", "档位"],
    score: ["Score", "得分"],
    channels: ["Found by", "检索通道"],
    evidence: ["Evidence", "证据"],
    id: ["Id", "编号"],
  },
  // issue 27 — consolelook
  look: {
    loading: ["Loading…", "正在加载…"],
    theme: ["Colour scheme", "配色"],
    theme_system: ["System", "跟随系统"],
    theme_light: ["Light", "浅色"],
    theme_dark: ["Dark", "深色"],
    conversations: ["Conversations", "对话列表"],
    closeConversations: ["Close the list", "关闭列表"],
    technical: ["Technical details", "技术细节"],
    badFile: ["This file is not in a format homed can read.", "homed 读不懂这个文件的格式。"],
    notJson: ["The request could not be read.", "无法读取这个请求。"],
    invalidInput: ["Something in the form is not right: check the fields and try again.", "表单里有内容不对：请检查后再试。"],
    fieldEmpty: ["“{field}” is empty: fill it in and try again.", "“{field}”是空的：请填写后再试。"],
    fieldTooBig: ["“{field}” is too long.", "“{field}”太长了。"],
    fieldInvalid: ["“{field}” is not valid: check it and try again.", "“{field}”不正确：请检查后再试。"],
    field_model: ["Model", "模型"],
    field_baseUrl: ["Base URL", "接口地址"],
    field_name: ["Name", "名称"],
    field_apiKey: ["API key", "API 密钥"],
    field_content: ["Message", "消息"],
    field_partner: ["Partner", "对象"],
    field_title: ["Title", "标题"],
    field_text: ["Text", "文字"],
    field_query: ["Search", "搜索"],
    providerHttp: ["The model provider failed (HTTP {status})", "模型服务出错了（HTTP {status}）"],
    providerFailed: ["The model provider failed", "模型服务出错了"],
    sentence: ["{text}.", "{text}。"],
    providerNext: [" Try again in a moment, or check its settings on the Providers page.", "请稍后再试，或在“模型服务”页检查它的设置。"],
    // Values the daemon sends (named(kind, value) below): doctor checks, plugin states, roles, bands, channels.
    check_data_folder_writable: ["data folder writable", "数据目录可写"],
    check_database_opens: ["database opens", "数据库能打开"],
    check_database_integrity: ["database integrity", "数据库完整"],
    check_migrations_current: ["migrations current", "迁移已是最新"],
    check_vector_search: ["vector search", "向量搜索"],
    check_full_text_search: ["full-text search", "全文搜索"],
    check_jieba: ["jieba", "jieba 分词"],
    check_onnx_runtime: ["ONNX Runtime", "ONNX Runtime 推理"],
    check_embedder: ["embedder", "嵌入模型"],
    check_browser_chromium: ["browser: Chromium", "浏览器：Chromium"],
    check_code_bubblewrap: ["code sandbox: bubblewrap", "代码沙箱：bubblewrap"],
    check_music_mpv: ["music: mpv", "音乐：mpv"],
    state_idle: ["idle", "空闲"],
    state_starting: ["starting", "正在启动"],
    state_running: ["running", "运行中"],
    state_backoff: ["waiting to restart", "等待重启"],
    state_failed: ["failed", "失败"],
    state_stopping: ["stopping", "正在停止"],
    state_stopped: ["stopped", "已停止"],
    role_user: ["user", "用户"],
    role_assistant: ["assistant", "助手"],
    role_tool: ["tool", "工具"],
    role_system: ["system", "系统"],
    band_IMMEDIATE: ["immediate", "立即"],
    band_WORKING: ["working", "工作"],
    band_BACKGROUND: ["background", "背景"],
    band_ACTIVE: ["active", "活跃"],
    channel_console: ["console", "控制台"],
    local: ["(local)", "（本地）"],
    via_words: ["words", "词语"],
    via_grams: ["character grams", "字符片段"],
    via_vector: ["meaning", "语义"],
  },
  // issue 27 — consolechat
  turn: {
    copy: ["Copy", "复制"],
    copied: ["Copied", "已复制"],
    copyMessage: ["Copy text", "复制文本"],
    copyAnswer: ["Copy answer", "复制回答"],
    copyCode: ["Copy code", "复制代码"],
    sendNow: ["Deliver now", "立即发出"],
    notSentYet: ["Not sent yet: no model was set up when it was written.", "还没有发送：写下它时还没有设置模型。"],
    partnerOptional: ["yourself (optional)", "你自己（可不填）"],
    partnerHelp: [
      "Empty: a chat of your own. A name gives that person or project chats of their own, and memory private to them stays there.",
      "留空就是你自己的对话。写上名字，就为那个人或项目单独开对话，只属于他们的记忆也只留在那里。",
    ],
    startChat: ["New chat", "新建对话"],
    firstTitle: ["First, add a model", "第一步：添加一个模型"],
    firstWhy: [
      "homed answers with a model you choose: a hosted one (with its API key) or one running on this machine. Pick a preset, list its models, test the connection.",
      "homed 用你选的模型来回答：云端的（用它的 API 密钥），或在这台机器上运行的。选一个预设，列出模型，测试连接即可。",
    ],
    firstLink: ["Add a model", "添加模型"],
    today: ["Today", "今天"],
    yesterday: ["Yesterday", "昨天"],
    earlier: ["Earlier", "更早"],
    firstMeanwhile: ["You can write already: a message waits here until a model is set up.", "现在就可以写：消息会留在这里，等模型设置好再发送。"],
    edit: ["Edit", "编辑"],
    editing: ["Editing what was said", "修改说过的话"],
    editLabel: ["Edited text", "修改后的文本"],
    sendEdited: ["Submit edit", "提交修改"],
    regenerate: ["Regenerate", "重新生成"],
    retry: ["Retry", "重试"],
    keySends: [" sends, ", " 发送，"],
    keyNewLine: [" starts a new line, ", " 换行，"],
    keyStops: [" stops the answer.", " 停止回答。"],
    enterSends: ["Enter sends", "按 Enter 发送"],
  },
  // issue 27 — audio
  voice: {
    record: ["Record your voice", "录音"],
    stopRecording: ["Stop and send the recording", "停止并发送录音"],
    recording: ["Recording…", "正在录音…"],
    micRefused: ["The microphone could not be used: {reason}", "无法使用麦克风：{reason}"],
    message: ["Voice message", "语音消息"],
    transcript: ["Transcript: {text}", "转写：{text}"],
    untranscribed: ["Not transcribed: no provider has a transcription model, or it failed", "未转写：没有模型服务设置转写模型，或转写失败"],
    readAloud: ["Read aloud", "朗读"],
    stopReading: ["Stop reading", "停止朗读"],
    transcriptionField: ["Transcription (optional)", "语音转写（可选）"],
    speechField: ["Speech (optional)", "语音合成（可选）"],
    speechVoiceField: ["Speech voice (optional)", "合成音色（可选）"],
    fieldsHelp: [
      "Models of this provider's /audio/transcriptions and /audio/speech endpoints. With a transcription model, voice messages are heard as their words; without one they are kept but not transcribed. Without a speech model, Read aloud uses the browser's voice.",
      "该服务 /audio/transcriptions 与 /audio/speech 接口的模型。设置了转写模型，语音消息会被转成文字；没有则只保存、不转写。没有合成模型时，“朗读”使用浏览器自带的声音。",
    ],
  },
  // issue 27 — proactive
  proactive: {
    region: ["Notifications", "通知"],
    source_reminder: ["Reminder", "提醒"],
    source_feed: ["New in a feed", "订阅有更新"],
    source_terminal: ["A terminal finished", "终端已结束"],
    source_plugin: ["From a plugin", "来自插件"],
    open: ["Open conversation", "打开对话"],
    dismiss: ["Dismiss", "关闭"],
    allowDesktop: ["Desktop notifications", "桌面通知"],
    desktopTitle: ["homed · {title}", "homed 消息 · {title}"],
    unread: ["new answer", "有新回答"],
    muteSession: ["Quiet: reminders and feeds do not wake this conversation", "静音：提醒和订阅不唤醒这个对话"],
    muteSource: ["Quiet: its events wake no conversation", "静音：它的事件不唤醒任何对话"],
    muteFailed: ["Cannot change: {message}", "无法更改：{message}"],
  },
} as const satisfies Record<string, Record<string, Entry>>;

/** Every text the console has, as "section.name": t() takes only these, so a missing word fails the type check. */
export type TextKey = { [S in keyof typeof STRINGS]: `${S}.${keyof (typeof STRINGS)[S] & string}` }[keyof typeof STRINGS];

/** The language in use: the one the person chose, else the browser's first that we speak. */
function pick(): LanguageId {
  const chosen = globalThis.localStorage?.getItem(STORAGE_KEY);
  if (LANGUAGES.some((l) => l.id === chosen)) return chosen as LanguageId;
  for (const tag of globalThis.navigator?.languages ?? []) {
    if (/^zh\b/i.test(tag)) return "zh-CN";
    if (/^en\b/i.test(tag)) return "en";
  }
  return "en";
}

let lang = pick();
export const language = () => lang;

/** Remembers the choice and tells the page (main.tsx redraws on "homed:language"). */
export function setLanguage(id: string): void {
  if (!LANGUAGES.some((l) => l.id === id) || id === lang) return;
  lang = id as LanguageId;
  globalThis.localStorage?.setItem(STORAGE_KEY, id);
  document.documentElement.lang = id;
  window.dispatchEvent(new Event("homed:language"));
}

/** A number in the language's digits and grouping. */
export const num = (n: number | undefined, options?: Intl.NumberFormatOptions): string => new Intl.NumberFormat(lang, options).format(n ?? 0);

/** A moment (milliseconds) as the language writes date and time; "—" when there is none. */
export const when = (ms: number | null | undefined): string => (ms ? new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms)) : "—");

/** Whether `key` has a text (for words that come from the daemon and may be new). */
export const has = (key: string): key is TextKey => entryOf(key) !== undefined;

function entryOf(key: string): Entry | undefined {
  const [section, name] = key.split(".");
  return (STRINGS as Record<string, Record<string, Entry>>)[section ?? ""]?.[name ?? ""];
}

/** A word the daemon sent, in the reader's language when the console knows it, else as sent. */
export const word = (value: unknown): string => {
  const key = `vocab.${String(value)}`;
  return has(key) ? t(key) : String(value);
};

/** What the daemon sends as a value of one kind (a doctor check, a plugin state, a role, a band, a channel, a search channel) in the reader's words, else as sent. */
export const named = (kind: "check" | "state" | "role" | "band" | "channel" | "via", value: string): string => {
  const key = `look.${kind}_${value.replace(/\W+/g, "_")}`;
  return has(key) ? t(key) : value;
};

/** The text for `key` ("section.name") in the current language, with {placeholders} filled. */
export function t(key: TextKey, params: Params = {}): string {
  const entry = entryOf(key);
  if (!entry) throw new Error(`no console text for ${key}`);
  const text = entry[lang === "zh-CN" ? 1 : 0];
  if (typeof text === "function") return text(params as Counts);
  return text.replace(/\{(\w+)\}/g, (_, p: string) => {
    const value = params[p];
    return typeof value === "number" ? num(value) : String(value ?? "");
  });
}
