/**
 * The music plugin over a large folder, through a real plugin process (from source): N generated
 * tagged MP3s (default 50,000, in folders of 100, Chinese and Latin tags, lyrics on every tenth)
 * indexed at the default pace (half a core); progress read from music_library every 2 s while
 * searches are timed during the walk; then the time to index, the process's peak resident
 * memory (VmHWM), the index file's size, search latency over the whole library, and a second walk
 * with nothing changed; a restart (the saved index loaded); search's CPU time in-process.
 *
 *   bun bench/plugins/music.ts [files]
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { builtinSpec } from "../../plugins/index.ts";
import { createPluginHost } from "../../src/plugins/index.ts";
import { SOURCE_HOMED } from "../../tests/support/process.ts";
import { mp3 } from "../../tests/plugins/tagged-audio.ts";
import { Library } from "../../plugins/music/library.ts";
import { searchTracks } from "../../plugins/music/search.ts";

const FILES = Number(process.argv[2] ?? 50_000);
const dir = mkdtempSync(join(tmpdir(), "homed-music-bench-"));
const folder = join(dir, "Music");
const SURNAMES = ["王", "李", "张", "刘", "陈"];
const t0 = performance.now();
for (let i = 0; i < FILES; i++) {
  const album = Math.floor(i / 100);
  if (i % 100 === 0) mkdirSync(join(folder, `Artist ${album % 500}`, `Album ${album}`), { recursive: true });
  const chinese = i % 2 === 0;
  const tags = {
    title: chinese ? `${SURNAMES[i % 5]}的歌 第${i}首` : `Song number ${i}`,
    artist: chinese ? `${SURNAMES[album % 5]}歌手${album % 500}` : `Artist ${album % 500}`,
    album: `Album ${album}`,
    year: 1960 + (i % 60),
    ...(i % 10 === 0 ? { lyrics: chinese ? `月亮代表我的心 第${i}行\n你问我爱你有多深` : `line ${i} of the words\nthe river runs to the sea` } : {}),
  };
  writeFileSync(join(folder, `Artist ${album % 500}`, `Album ${album}`, `${i}.mp3`), mp3(tags, 0.03));
}
console.log(`wrote ${FILES} files in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const marker = `music-bench-${randomUUID()}`;
const spec = builtinSpec("music", SOURCE_HOMED, { dir: join(dir, "data"), folder, rescanMinutes: 0 });
const host = createPluginHost([{ ...spec, env: { ...spec.env, HOMED_BENCH_MARKER: marker }, timeoutMs: 60_000 }], { graceMs: 1000 });
const started = performance.now();
await host.start();
const call = async (tool: string, args: Record<string, unknown> = {}) => (await host.callTool("music", tool, args)).structuredContent as Record<string, any>;
const pluginPid = () =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, "utf8").includes(marker) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("plugin");
      } catch {
        return false;
      }
    });
const memory = (pid: string | undefined, field: "VmRSS" | "VmHWM") => (pid ? Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024 : 0);
const pid = pluginPid();

const during: number[] = [];
for (;;) {
  const t = performance.now();
  const found = await call("music_search", { query: "月亮 深" });
  during.push(performance.now() - t);
  const { index } = found;
  console.log(
    `${((performance.now() - started) / 1000).toFixed(0)} s: ${index.filesSeen} files seen, ${index.tracks} tracks, ${index.read} read; search ${during.at(-1)!.toFixed(1)} ms, ${found.total} hits; RSS ${memory(pid, "VmRSS").toFixed(0)} MB`,
  );
  if (!index.scanning) break;
  await new Promise((resolve) => setTimeout(resolve, 2000));
}
const indexed = (performance.now() - started) / 1000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const times: Record<string, number[]> = {};
for (const query of ["王的歌", "song number 4242", "artist 17", "river sea", "你问我爱你有多深", "nothing like this"]) {
  times[query] = [];
  for (let r = 0; r < 9; r++) {
    const t = performance.now();
    await call("music_search", { query, limit: 20 });
    times[query].push(performance.now() - t);
  }
}
const again = performance.now();
await call("music_library", { rescan: true, wait: true });
while ((await call("music_library")).scanning) await new Promise((resolve) => setTimeout(resolve, 500));
const rescan = await call("music_library");
console.log(`
${FILES} files indexed in ${indexed.toFixed(1)} s (from the plugin's start); peak resident ${memory(pid, "VmHWM").toFixed(0)} MB
index file ${(statSync(join(dir, "data", "library.json")).size / 1024 / 1024).toFixed(1)} MiB
search while walking: median ${median(during).toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms (${during.length} searches)
search over the whole library (median of 9): ${Object.entries(times)
  .map(([q, t]) => `"${q}" ${median(t).toFixed(1)} ms`)
  .join(", ")}
second walk, nothing changed: ${((performance.now() - again) / 1000).toFixed(1)} s, ${rescan.scan.read} read`);
await host.stopAll();

// A restart: the saved index loaded (after the handshake), the folder walked with nothing to read.
const restarted = performance.now();
const second = createPluginHost([{ ...spec, timeoutMs: 60_000 }], { graceMs: 1000 });
await second.start();
const handshake = performance.now() - restarted;
await second.callTool("music", "music_library", { wait: true });
while (((await second.callTool("music", "music_library", {})).structuredContent as Record<string, any>).scanning) await new Promise((resolve) => setTimeout(resolve, 500));
console.log(`restart: running after ${(handshake / 1000).toFixed(1)} s, saved index loaded and folder checked after ${((performance.now() - restarted) / 1000).toFixed(1)} s`);
await second.stopAll();

// Search's own cost, without the process hop or the machine's other load: CPU time in this process.
const library = new Library({ dir: join(dir, "data"), folder, maxFiles: FILES, cpuShare: 1, log: () => {} });
const loadStarted = performance.now();
await library.load();
console.log(`index of ${library.size} tracks read and checked in ${(performance.now() - loadStarted).toFixed(0)} ms`);
searchTracks(library.all(), "warm up", 20);
const cpu: string[] = [];
for (const query of Object.keys(times)) {
  const samples: number[] = [];
  for (let r = 0; r < 9; r++) {
    const before = process.cpuUsage();
    searchTracks(library.all(), query, 20);
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / 1000);
  }
  cpu.push(`"${query}" ${median(samples).toFixed(1)} ms`);
}
console.log(`search CPU time in-process (median of 9): ${cpu.join(", ")}`);
rmSync(dir, { recursive: true, force: true });
