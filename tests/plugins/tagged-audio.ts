/**
 * Small valid audio files with tags, written in code for the music plugin's tests: an MP3 (ID3v2.4
 * frames in UTF-8, then silent MPEG-1 Layer III frames) and a FLAC (STREAMINFO and a Vorbis
 * comment block). Both are laid out as their specifications say (id3.org's id3v2.4.0-structure
 * and -frames, xiph.org's FLAC format), so any tag reader reads them like files from a shop.
 */

export type Tags = { title?: string; artist?: string; album?: string; year?: number; lyrics?: string };

/** A 28-bit "syncsafe" integer: seven bits a byte, as ID3v2.4 sizes are written. */
function syncsafe(n: number): Buffer {
  return Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);
}

function id3Frame(id: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(id, "latin1"), syncsafe(body.length), Buffer.from([0, 0]), body]);
}

/** A text frame: encoding 3 (UTF-8), then the text. */
const textFrame = (id: string, text: string) => id3Frame(id, Buffer.concat([Buffer.from([3]), Buffer.from(text, "utf8")]));

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, no padding: 417 bytes a frame, 1152 samples (26 ms). */
const MPEG_FRAME = (() => {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x00]);
  return frame;
})();

/** An MP3 of `seconds` of silence with the given tags (USLT for the lyrics, language "und"). */
export function mp3(tags: Tags, seconds = 1): Buffer {
  const frames: Buffer[] = [];
  if (tags.title !== undefined) frames.push(textFrame("TIT2", tags.title));
  if (tags.artist !== undefined) frames.push(textFrame("TPE1", tags.artist));
  if (tags.album !== undefined) frames.push(textFrame("TALB", tags.album));
  if (tags.year !== undefined) frames.push(textFrame("TDRC", String(tags.year)));
  // USLT: encoding, language, an empty descriptor (terminated by a NUL), the lyrics.
  if (tags.lyrics !== undefined) frames.push(id3Frame("USLT", Buffer.concat([Buffer.from([3]), Buffer.from("und", "latin1"), Buffer.from([0]), Buffer.from(tags.lyrics, "utf8")])));
  const body = Buffer.concat(frames);
  const header = Buffer.concat([Buffer.from("ID3", "latin1"), Buffer.from([4, 0, 0]), syncsafe(body.length)]);
  const count = Math.max(1, Math.round((seconds * 44_100) / 1152));
  return Buffer.concat([header, body, ...Array.from({ length: count }, () => MPEG_FRAME)]);
}

/** A FLAC of `seconds` (by STREAMINFO's sample count; no audio frames) with Vorbis comments (LYRICS for the lyrics). */
export function flac(tags: Tags, seconds = 1): Buffer {
  const block = (type: number, last: boolean, body: Buffer) =>
    Buffer.concat([Buffer.from([(last ? 0x80 : 0) | type, (body.length >> 16) & 0xff, (body.length >> 8) & 0xff, body.length & 0xff]), body]);
  // STREAMINFO: block sizes 4096, frame sizes unknown, 44.1 kHz, 2 channels, 16 bits, the sample count, an empty MD5.
  const info = Buffer.alloc(34);
  info.writeUInt16BE(4096, 0);
  info.writeUInt16BE(4096, 2);
  const samples = Math.round(seconds * 44_100);
  // 20 bits rate, 3 bits channels-1, 5 bits bits-1, 36 bits samples (the top 4 of them zero here).
  info.writeUInt32BE(((44_100 << 12) | (1 << 9) | (15 << 4)) >>> 0, 10);
  info.writeUInt32BE(samples >>> 0, 14);
  const comments = Object.entries({ TITLE: tags.title, ARTIST: tags.artist, ALBUM: tags.album, DATE: tags.year?.toString(), LYRICS: tags.lyrics })
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => Buffer.from(`${key}=${value}`, "utf8"));
  const le32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n, 0);
    return b;
  };
  const vendor = Buffer.from("homed tests", "utf8");
  const vorbis = Buffer.concat([le32(vendor.length), vendor, le32(comments.length), ...comments.flatMap((c) => [le32(c.length), c])]);
  return Buffer.concat([Buffer.from("fLaC", "latin1"), block(0, false, info), block(4, true, vorbis)]);
}
