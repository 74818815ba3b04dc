/**
 * music as a real plugin process (`homed plugin run music` under the host) over a folder of
 * generated tagged files — MP3s with ID3v2.4 frames, a FLAC with Vorbis comments, Chinese and
 * Latin titles and lyrics: found by artist, title, album and lyrics, ranked, re-indexed by
 * modification time; played through a fake `mpv` on PATH that speaks mpv's JSON IPC and a fake
 * MPD on loopback that speaks MPD's protocol; and without a player, every playback tool says
 * which players work and how to install one while search goes on working.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { builtinSpec } from "../../plugins/index.ts";
import { createPluginHost, type CallToolResult, type PluginHost, type PluginSpec } from "../../src/plugins/index.ts";
import { scriptCommand, SOURCE_HOMED } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";
import { FIXTURES } from "./support.ts";
import { flac, mp3 } from "./tagged-audio.ts";

const MOON = { title: "月亮代表我的心", artist: "邓丽君", album: "淡淡幽情", year: 1977, lyrics: "你问我爱你有多深\n我爱你有几分\n我的情也真\n我的爱也不变\n月亮代表我的心" };
const BLUE = { title: "Blue in Green", artist: "Miles Davis", album: "Kind of Blue", year: 1959, lyrics: "no words here, only a trumpet" };
const SO_WHAT = { title: "So What", artist: "Miles Davis", album: "Kind of Blue", year: 1959 };
/** For ranking: a title that is the whole query "blue", and "blue" only in an album. */
const ZOE = { title: "Blue", artist: "Zoe Keating", album: "Into the Trees", year: 2010 };
const ABBEY = { title: "Morning", artist: "Abbey Lincoln", album: "Blue Skies", year: 1962 };
const HALO = { title: "Halo", artist: "Beyoncé", album: "I Am... Sasha Fierce", year: 2008, lyrics: "Remember those walls I built\nWell, baby, they're tumbling down" };

/** Writes the library: five MP3s and a FLAC, in folders and not, and a text file beside them. */
function writeLibrary(folder: string): void {
  mkdirSync(join(folder, "Miles Davis", "Kind of Blue"), { recursive: true });
  mkdirSync(join(folder, "华语"), { recursive: true });
  writeFileSync(join(folder, "华语", "月亮代表我的心.mp3"), mp3(MOON, 2));
  writeFileSync(join(folder, "Miles Davis", "Kind of Blue", "Blue in Green.flac"), flac(BLUE, 3));
  writeFileSync(join(folder, "Miles Davis", "Kind of Blue", "So What.mp3"), mp3(SO_WHAT, 1));
  writeFileSync(join(folder, "Halo.mp3"), mp3(HALO, 1));
  writeFileSync(join(folder, "Blue.mp3"), mp3(ZOE, 1));
  writeFileSync(join(folder, "Morning.mp3"), mp3(ABBEY, 1));
  writeFileSync(join(folder, "cover notes.txt"), "not music\n");
}

type Body = Record<string, any>;
const caller =
  (host: PluginHost) =>
  async (tool: string, args: Record<string, unknown> = {}) => {
    const result: CallToolResult = await host.callTool("music", tool, args);
    return { isError: result.isError ?? false, ...(result.structuredContent as Body) } as Body;
  };
const titles = (body: Body) => body.tracks.map((t: { title: string }) => t.title);

/** A port nothing listens on: one the OS gave, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function musicSpec(config: Record<string, unknown>, env: Record<string, string>): PluginSpec {
  const spec = builtinSpec("music", SOURCE_HOMED, { rescanMinutes: 0, ...config });
  return { ...spec, env: { ...spec.env, ...env } };
}

describe("music plugin: index and search, played through mpv", () => {
  const dir = tempDir("homed-music-");
  const folder = join(dir.path, "Music");
  const data = join(dir.path, "data");
  const bin = join(dir.path, "bin");
  const mpvLog = join(dir.path, "mpv.log");
  let host: PluginHost;
  let call: ReturnType<typeof caller>;

  before(async () => {
    writeLibrary(folder);
    mkdirSync(bin);
    // `mpv` on PATH is the fake: a shell script that runs fixtures/fake-mpv.ts with this runtime.
    const command = scriptCommand(join(FIXTURES, "fake-mpv.ts"))
      .map((part) => `'${part}'`)
      .join(" ");
    writeFileSync(join(bin, "mpv"), `#!/bin/sh\nexec ${command} "$@"\n`);
    chmodSync(join(bin, "mpv"), 0o755);
    host = createPluginHost([musicSpec({ dir: data, folder, mpd: { port: await closedPort() } }, { PATH: `${bin}:${process.env.PATH}`, FAKE_MPV_LOG: mpvLog })], { graceMs: 1000 });
    await host.start();
    call = caller(host);
    await call("music_library", { wait: true });
  });
  after(async () => {
    await host?.stopAll();
    dir.remove();
  });

  test("the walk indexes the tagged files (MP3 and FLAC) with their tags, duration and lyrics, and saves the index", async () => {
    const library = await call("music_library", { wait: true });
    assert.equal(library.isError, false, JSON.stringify(library));
    assert.deepEqual([library.tracks, library.scanning, library.scan.audioFiles, library.scan.filesSeen], [6, false, 6, 7]);
    const found = await call("music_search", { query: "月亮代表我的心" });
    assert.equal(found.total, 1);
    const moon = found.tracks[0];
    assert.deepEqual([moon.title, moon.artist, moon.album, moon.year, moon.path], [MOON.title, MOON.artist, MOON.album, 1977, join(folder, "华语", "月亮代表我的心.mp3")]);
    assert.ok(Math.abs(moon.duration - 2) < 0.2, `duration ${moon.duration}`);
    const blue = (await call("music_search", { query: "Blue in Green" })).tracks[0];
    assert.deepEqual([blue.title, blue.artist, blue.album, blue.year, blue.duration], ["Blue in Green", "Miles Davis", "Kind of Blue", 1959, 3]);
    const saved = JSON.parse(readFileSync(join(data, "library.json"), "utf8"));
    assert.equal(saved.tracks.length, 6);
    assert.equal(saved.tracks.find((t: { title: string }) => t.title === MOON.title).lyrics, MOON.lyrics);
  });

  test("search finds by artist, title, album and lyrics, in Chinese and Latin text, accents and case folded", async () => {
    assert.deepEqual(titles(await call("music_search", { query: "邓丽君" })), [MOON.title], "Chinese artist");
    assert.deepEqual(titles(await call("music_search", { query: "淡淡幽情" })), [MOON.title], "Chinese album");
    assert.deepEqual(titles(await call("music_search", { query: "月亮" })), [MOON.title], "part of a Chinese title");
    const lyric = await call("music_search", { query: "爱你有多深" });
    assert.deepEqual([titles(lyric), lyric.tracks[0].matched, lyric.tracks[0].lyrics], [[MOON.title], ["lyrics"], "你问我爱你有多深"], "Chinese lyrics, the line given");
    const tumbling = await call("music_search", { query: "tumbling" });
    assert.deepEqual([titles(tumbling), tumbling.tracks[0].lyrics], [["Halo"], "Well, baby, they're tumbling down"], "Latin lyrics");
    assert.deepEqual(titles(await call("music_search", { query: "BEYONCE" })), ["Halo"], "accents and case folded");
    assert.deepEqual(titles(await call("music_search", { query: "sasha fierce" })), ["Halo"], "album");
    assert.deepEqual(titles(await call("music_search", { query: "trumpet" })), ["Blue in Green"], "FLAC's LYRICS comment");
    assert.deepEqual(titles(await call("music_search", { query: "miles halo" })), [], "every word must match");
    assert.deepEqual((await call("music_search", { query: "cover notes" })).total, 0, "other files are not indexed");
  });

  test("ranking: a whole-field match first, a title or artist match over an album match, then by artist", async () => {
    // Zoe Keating's "Blue" is the whole query; "blue" starts a word of Blue in Green's title, and of
    // the albums of Abbey Lincoln's Morning and Miles Davis's So What (alike: artist order).
    assert.deepEqual(titles(await call("music_search", { query: "blue" })), ["Blue", "Blue in Green", "Morning", "So What"]);
    assert.deepEqual(titles(await call("music_search", { query: "miles davis" })), ["Blue in Green", "So What"]);
    // The whole query is So What's title.
    assert.deepEqual(titles(await call("music_search", { query: "so what" })), ["So What"]);
    assert.deepEqual(titles(await call("music_search", { query: "kind of blue so what" })), ["So What"]);
  });

  test("rescan reads only new and changed files (by modification time) and drops removed ones", async () => {
    const soWhat = join(folder, "Miles Davis", "Kind of Blue", "So What.mp3");
    writeFileSync(soWhat, mp3({ ...SO_WHAT, title: "So What (live)" }, 1));
    const later = new Date(Date.now() + 60_000);
    utimesSync(soWhat, later, later);
    rmSync(join(folder, "Halo.mp3"));
    writeFileSync(join(folder, "华语", "甜蜜蜜.mp3"), mp3({ title: "甜蜜蜜", artist: "邓丽君", album: "甜蜜蜜", year: 1979, lyrics: "甜蜜蜜 你笑得甜蜜蜜" }));
    const library = await call("music_library", { rescan: true, wait: true });
    assert.deepEqual([library.scan.read, library.scan.removed, library.tracks], [2, 1, 6]);
    assert.deepEqual(titles(await call("music_search", { query: "so what" })), ["So What (live)"]);
    assert.equal((await call("music_search", { query: "halo" })).total, 0);
    assert.deepEqual(titles(await call("music_search", { query: "邓丽君" })).sort(), [MOON.title, "甜蜜蜜"].sort());
    const again = await call("music_library", { rescan: true, wait: true });
    assert.deepEqual([again.scan.read, again.scan.removed, again.tracks], [0, 0, 6], "nothing changed: nothing read");
  });

  test("play a search's results as a playlist, pause, resume, volume, next and now playing go through mpv's IPC", async () => {
    const playing = await call("music_play", { query: "kind of blue" });
    assert.equal(playing.isError, false, JSON.stringify(playing));
    assert.deepEqual([playing.player, playing.state, playing.queued, playing.track.title, playing.queue], ["mpv", "playing", 2, "Blue in Green", { index: 0, count: 2 }]);
    const paused = await call("music_pause");
    assert.equal(paused.state, "paused");
    assert.equal((await call("music_resume")).state, "playing");
    assert.equal((await call("music_volume", { level: 35 })).volume, 35);
    const next = await call("music_next");
    assert.deepEqual([next.track.title, next.queue.index], ["So What (live)", 1]);
    const now = await call("music_now_playing");
    assert.deepEqual([now.state, now.track.artist, now.track.album, now.position, now.duration, now.volume], ["playing", "Miles Davis", "Kind of Blue", 0.5, 2, 35]);
    assert.equal((await call("music_next")).error, "end_of_queue");

    const commands = readFileSync(mpvLog, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    assert.ok(commands[0].argv.includes("--idle=yes") && commands[0].argv.some((a: string) => a.startsWith("--input-ipc-server=")), JSON.stringify(commands[0]));
    const sent = commands.slice(1).map((c: { command: unknown[] }) => c.command.join(" "));
    const blue = join(folder, "Miles Davis", "Kind of Blue", "Blue in Green.flac");
    const soWhat = join(folder, "Miles Davis", "Kind of Blue", "So What.mp3");
    for (const expected of [`loadfile ${blue} replace`, `loadfile ${soWhat} append`, "set_property pause true", "set_property pause false", "set_property volume 35", "playlist-next weak"]) {
      assert.ok(sent.includes(expected), `mpv got ${expected}: ${JSON.stringify(sent)}`);
    }
  });

  test("play one track by its search id", async () => {
    const [moon] = (await call("music_search", { query: "爱你有多深" })).tracks;
    const playing = await call("music_play", { ids: [moon.id] });
    assert.deepEqual([playing.state, playing.track.title, playing.queue.count], ["playing", MOON.title, 1]);
    assert.equal((await call("music_play", { ids: ["nope"] })).error, "track_not_found");
    assert.equal((await call("music_play", { query: "no such song anywhere" })).error, "not_found");
  });

  test("the saved index is used after a restart (nothing read again); a damaged one is rebuilt from the folder", async () => {
    const restart = async () => {
      await host.stopAll();
      host = createPluginHost([musicSpec({ dir: data, folder, mpd: { port: await closedPort() } }, { PATH: `${bin}:${process.env.PATH}`, FAKE_MPV_LOG: mpvLog })], { graceMs: 1000 });
      await host.start();
      call = caller(host);
      return call("music_library", { wait: true });
    };
    const again = await restart();
    assert.deepEqual([again.tracks, again.scan.read, again.scan.audioFiles], [6, 0, 6], host.list()[0]!.logTail.join("\n"));
    writeFileSync(join(data, "library.json"), '{"version": 1, "tracks": [{"path": 3}]}');
    const rebuilt = await restart();
    assert.deepEqual([rebuilt.tracks, rebuilt.scan.read], [6, 6]);
    assert.ok(
      host.list()[0]!.logTail.some((line) => /library\.json.*the index is rebuilt from the folder/.test(line)),
      host.list()[0]!.logTail.join("\n"),
    );
    assert.deepEqual(titles(await call("music_search", { query: "爱你有多深" })), [MOON.title]);
  });
});

describe("music plugin: played through MPD", () => {
  const dir = tempDir("homed-music-mpd-");
  const folder = join(dir.path, "Music");
  let host: PluginHost;
  let server: Server;
  let call: ReturnType<typeof caller>;
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const mpd = { queue: [] as string[], song: -1, state: "stop", volume: 50 };

  before(async () => {
    writeLibrary(folder);
    // A fake MPD: the greeting, then one answer per command line, as MPD's protocol documents.
    server = createServer((socket: Socket) => {
      sockets.add(socket);
      socket.setEncoding("utf8");
      socket.write("OK MPD 0.23.5\n");
      let buffered = "";
      socket.on("data", (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          received.push(line);
          const [verb, ...rest] = line.split(" ");
          const arg = rest.join(" ");
          const ok = (lines: string[] = []) => socket.write([...lines, "OK", ""].join("\n"));
          if (verb === "close") return void socket.end();
          if (verb === "password") ok(arg === '"sesame"' ? [] : undefined);
          else if (verb === "clear") (mpd.queue = []), (mpd.song = -1), (mpd.state = "stop"), ok();
          else if (verb === "add") mpd.queue.push(JSON.parse(arg)), ok();
          else if (verb === "play") (mpd.song = Number(arg || 0)), (mpd.state = "play"), ok();
          else if (verb === "pause") (mpd.state = arg === "1" ? "pause" : "play"), ok();
          else if (verb === "next") (mpd.song = Math.min(mpd.song + 1, mpd.queue.length - 1)), ok();
          else if (verb === "setvol") (mpd.volume = Number(arg)), ok();
          else if (verb === "status")
            ok([`volume: ${mpd.volume}`, `playlistlength: ${mpd.queue.length}`, `state: ${mpd.state}`, ...(mpd.song >= 0 ? [`song: ${mpd.song}`, "elapsed: 1.250", "duration: 3.000"] : [])]);
          else if (verb === "currentsong") ok(mpd.song >= 0 ? [`file: ${mpd.queue[mpd.song]}`, "Title: whatever MPD read"] : []);
          else socket.write(`ACK [5@0] {${verb}} unknown command "${verb}"\n`);
        }
      });
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    // mpv is not looked for: player "mpd" asks MPD only.
    host = createPluginHost([musicSpec({ dir: join(dir.path, "data"), folder, player: "mpd", mpd: { host: "127.0.0.1", port, password: "sesame" } }, {})], { graceMs: 1000 });
    await host.start();
    call = caller(host);
    await call("music_library", { wait: true });
  });
  after(async () => {
    await host?.stopAll();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
    dir.remove();
  });

  test("play, pause, resume, volume, next and now playing are MPD commands, with paths relative to the music folder", async () => {
    const playing = await call("music_play", { query: "miles davis" });
    assert.equal(playing.isError, false, JSON.stringify(playing));
    assert.deepEqual([playing.player, playing.state, playing.track.title, playing.queue], ["mpd", "playing", "Blue in Green", { index: 0, count: 2 }]);
    assert.deepEqual(mpd.queue, ["Miles Davis/Kind of Blue/Blue in Green.flac", "Miles Davis/Kind of Blue/So What.mp3"]);
    assert.equal((await call("music_pause")).state, "paused");
    assert.equal((await call("music_resume")).state, "playing");
    assert.equal((await call("music_volume", { level: 40 })).volume, 40);
    const next = await call("music_next");
    assert.deepEqual([next.track.title, next.track.artist, next.queue.index, next.position, next.duration], ["So What", "Miles Davis", 1, 1.25, 3]);
    assert.equal((await call("music_now_playing")).track.title, "So What");
    for (const expected of ['password "sesame"', "clear", 'add "Miles Davis/Kind of Blue/Blue in Green.flac"', "play 0", "pause 1", "pause 0", "setvol 40", "next", "status", "currentsong"]) {
      assert.ok(received.includes(expected), `MPD got ${expected}: ${JSON.stringify(received)}`);
    }
  });
});

describe("music plugin: no player, the default folder", () => {
  const dir = tempDir("homed-music-none-");
  // No folder in the settings: ~/Music of the user the plugin runs as (HOME here).
  const folder = join(dir.path, "Music");
  let host: PluginHost;
  let call: ReturnType<typeof caller>;

  before(async () => {
    writeLibrary(folder);
    mkdirSync(join(dir.path, "empty-bin"));
    // No mpv on PATH, nothing at the MPD address.
    host = createPluginHost([musicSpec({ dir: join(dir.path, "data"), mpd: { port: await closedPort() } }, { PATH: join(dir.path, "empty-bin"), HOME: dir.path })], { graceMs: 1000 });
    await host.start();
    call = caller(host);
    const library = await call("music_library", { wait: true });
    assert.deepEqual([library.folder, library.tracks], [folder, 6]);
  });
  after(async () => {
    await host?.stopAll();
    dir.remove();
  });

  test("every playback tool says which players are supported and how to install one; search still works", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["music_play", { query: "halo" }],
      ["music_pause", {}],
      ["music_resume", {}],
      ["music_next", {}],
      ["music_volume", { level: 50 }],
      ["music_now_playing", {}],
    ];
    for (const [tool, args] of calls) {
      const body = await call(tool, args);
      assert.equal(body.isError, true, tool);
      assert.equal(body.error, "no_player", tool);
      assert.deepEqual(body.supported, ["mpv", "mpd"]);
      assert.match(body.message, /mpv: "mpv" is not on PATH; MPD: nothing answers at 127\.0\.0\.1:\d+/, tool);
      assert.match(body.message, /apt install mpv/, tool);
    }
    assert.deepEqual(titles(await call("music_search", { query: "halo" })), ["Halo"]);
  });
});

describe("music plugin: a large folder", () => {
  const dir = tempDir("homed-music-large-");
  const folder = join(dir.path, "Music");
  let host: PluginHost;
  let call: ReturnType<typeof caller>;

  before(async () => {
    // 120 tagged files in 20 folders, read at 5 % of a core: the walk takes seconds.
    for (let f = 0; f < 20; f++) {
      mkdirSync(join(folder, `album ${f}`), { recursive: true });
      for (let t = 0; t < 6; t++) writeFileSync(join(folder, `album ${f}`, `track ${t}.mp3`), mp3({ title: `Song ${f}-${t}`, artist: `Band ${f}`, album: `Album ${f}` }, 0.1));
    }
    host = createPluginHost([musicSpec({ dir: join(dir.path, "data"), folder, cpuShare: 0.05, mpd: { port: await closedPort() } }, {})], { graceMs: 1000 });
    await host.start();
    call = caller(host);
  });
  after(async () => {
    await host?.stopAll();
    dir.remove();
  });

  test("searches are answered while the walk runs, with its progress; the walk then finishes", async () => {
    const started = performance.now();
    const during = await call("music_search", { query: "band" });
    assert.ok(performance.now() - started < 2000, "answered at once");
    assert.equal(during.index.scanning, true, JSON.stringify(during.index));
    assert.ok(during.index.audioFiles < 120);
    const done = await call("music_library", { wait: true });
    assert.deepEqual([done.scanning, done.tracks], [false, 120]);
    // Unpaced, these 120 files are read in well under a second of one core.
    const took = Date.parse(done.scan.finishedAt) - Date.parse(done.scan.startedAt);
    assert.ok(took > 2500, `the walk took ${took} ms: paced to 5 % of a core`);
    assert.equal((await call("music_search", { query: "band 17" })).total, 6);
    assert.ok(existsSync(join(dir.path, "data", "library.json")));
  });
});
