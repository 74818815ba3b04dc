// Voice in the console: the microphone button of the composer (MediaRecorder), a voice message's
// recording played back beside its transcript, and an answer read aloud — by the provider's
// /audio/speech model when one is set up (POST /api/audio/speech), else by the browser's voice.
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "./api.ts";
import { errorText } from "./errors.ts";
import { language, t } from "./i18n.ts";

/** The provider form's voice fields (ProviderInput's), sent only when filled in. */
export const VOICE_FIELDS: readonly string[] = ["transcriptionModel", "speechModel", "speechVoice"];

/** A provider's audio models, in its form: the transcription model hears voice messages, the speech model reads answers aloud. */
export function VoiceModelFields({ existing }: { existing: { transcriptionModel?: string; speechModel?: string; speechVoice?: string } | null }) {
  return (
    <>
      <label for="p-transcription">{t("voice.transcriptionField")}</label>
      <input id="p-transcription" name="transcriptionModel" defaultValue={existing?.transcriptionModel ?? ""} placeholder="whisper-1" autocomplete="off" aria-describedby="p-voice-help" />
      <label for="p-speech">{t("voice.speechField")}</label>
      <input id="p-speech" name="speechModel" defaultValue={existing?.speechModel ?? ""} placeholder="tts-1" autocomplete="off" aria-describedby="p-voice-help" />
      <label for="p-speech-voice">{t("voice.speechVoiceField")}</label>
      <input id="p-speech-voice" name="speechVoice" defaultValue={existing?.speechVoice ?? ""} placeholder="alloy" autocomplete="off" translate={false} />
      <p id="p-voice-help" class="small muted full">
        {t("voice.fieldsHelp")}
      </p>
    </>
  );
}

/** A recording as the messages route takes it (`audio` of POST /api/sessions/:id/messages). */
export type Recording = { data: string; mime: string; url: string };

async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Whether this browser can record (a secure origin: localhost or https). */
const canRecord = () => typeof MediaRecorder !== "undefined" && !!navigator.mediaDevices?.getUserMedia;

/** A microphone, drawn inline: the console loads nothing from elsewhere, and emoji fonts are not everywhere. */
const MicIcon = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round">
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
  </svg>
);

/** The microphone: press to record, press again to stop and send. */
export function VoiceRecorder({ disabled, recorded }: { disabled: boolean; recorded: (r: Recording) => void }) {
  const [state, setState] = useState<"idle" | "recording">("idle");
  const [refused, setRefused] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  // Leaving the page while recording lets the microphone go.
  useEffect(
    () => () => {
      for (const track of recorder.current?.stream.getTracks() ?? []) track.stop();
    },
    [],
  );
  if (!canRecord()) return null;

  async function start() {
    setRefused(null);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const chunks: Blob[] = [];
      const rec = new MediaRecorder(stream);
      rec.ondataavailable = (e) => e.data.size && chunks.push(e.data);
      rec.onstop = async () => {
        for (const track of stream.getTracks()) track.stop();
        const blob = new Blob(chunks, { type: rec.mimeType || "audio/webm" });
        recorder.current = null;
        setState("idle");
        if (blob.size) recorded({ data: await base64Of(blob), mime: blob.type.split(";")[0]!, url: URL.createObjectURL(blob) });
      };
      rec.start();
      recorder.current = rec;
      setState("recording");
    } catch (error) {
      setRefused(errorText(error));
    }
  }

  const recording = state === "recording";
  return (
    <>
      <button
        type="button"
        class={recording ? "mic recording" : "mic quiet"}
        aria-pressed={recording}
        disabled={disabled && !recording}
        aria-label={recording ? t("voice.stopRecording") : t("voice.record")}
        title={recording ? t("voice.stopRecording") : t("voice.record")}
        onClick={() => (recording ? recorder.current?.stop() : void start())}
      >
        {recording ? `■ ${t("voice.recording")}` : <MicIcon />}
      </button>
      {refused && (
        <p class="small error" role="alert">
          {t("voice.micRefused", { reason: refused })}
        </p>
      )}
    </>
  );
}

/** A voice message: its recording (stored: /api/audio/:id; just sent: the local copy) and its transcript. */
export function VoiceClip({ src, transcript, pending }: { src: string; transcript?: string; pending?: boolean }) {
  return (
    <figure class="voice-clip">
      <figcaption class="small muted">{t("voice.message")}</figcaption>
      {/* biome-ignore lint/a11y/useMediaCaption: a person's own voice message; its transcript is beside it */}
      <audio controls preload="none" src={src} />
      {transcript !== undefined ? <p class="small">{t("voice.transcript", { text: transcript })}</p> : pending ? null : <p class="small muted">{t("voice.untranscribed")}</p>}
    </figure>
  );
}

/** A stored message's voice messages (its audio parts), as clips played from /api/audio/:id. */
export function voiceClips(content: unknown): { src: string; transcript?: string }[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((p: { type?: string; audio?: { id: string; transcript?: string } }) =>
    p.type === "audio" && p.audio ? [{ src: `/api/audio/${encodeURIComponent(p.audio.id)}`, ...(p.audio.transcript !== undefined ? { transcript: p.audio.transcript } : {}) }] : [],
  );
}

/** A message's text without the lines that tell the model about its voice messages (the clips show them). */
export const withoutVoiceLines = (text: string): string =>
  text
    .split("\n")
    .filter((line) => !/^\[(Voice message, transcribed|A voice message arrived)/.test(line))
    .join("\n")
    .trim();

/** Whether a provider has a speech model (ProvidersAnswer), set once the page has loaded the providers. */
let providerSpeech = false;
export const setProviderSpeech = (has: boolean) => {
  providerSpeech = has;
};

/** Markdown's marks are not read out: code fences, emphasis, links as their words. */
const spoken = (markdown: string) =>
  markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`#>]+/g, "")
    .trim();

/** Reads an answer aloud; pressed again, stops. */
export function ReadAloud({ text }: { text: string }) {
  const [speaking, setSpeaking] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  useEffect(() => () => stop(), []);
  const canSpeak = providerSpeech || typeof speechSynthesis !== "undefined";
  if (!canSpeak || !text.trim()) return null;

  function stop() {
    audio.current?.pause();
    audio.current = null;
    if (typeof speechSynthesis !== "undefined") speechSynthesis.cancel();
    setSpeaking(false);
  }

  async function speak() {
    setFailed(null);
    setSpeaking(true);
    const words = spoken(text).slice(0, 4096);
    if (providerSpeech) {
      try {
        const response = await fetch("/api/audio/speech", {
          method: "POST",
          credentials: "same-origin",
          headers: { "x-homed-request": "1", "content-type": "application/json" },
          body: JSON.stringify({ text: words }),
        });
        if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
        const player = new Audio(URL.createObjectURL(await response.blob()));
        audio.current = player;
        player.onended = () => setSpeaking(false);
        await player.play();
        return;
      } catch (error) {
        setFailed(errorText(error));
        setSpeaking(false);
        return;
      }
    }
    const utterance = new SpeechSynthesisUtterance(words);
    utterance.lang = language() === "zh-CN" ? "zh-CN" : "en";
    utterance.onend = () => setSpeaking(false);
    utterance.onerror = () => setSpeaking(false);
    speechSynthesis.speak(utterance);
  }

  return (
    <>
      <button type="button" class="quiet small" aria-pressed={speaking} onClick={() => (speaking ? stop() : void speak())}>
        {speaking ? t("voice.stopReading") : t("voice.readAloud")}
      </button>
      {failed && (
        <span class="small error" role="alert">
          {failed}
        </span>
      )}
    </>
  );
}
