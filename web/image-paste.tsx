// Photos pasted into the composer: read from the clipboard, re-encoded as JPEG of at most
// MAX_SIDE pixels (a phone photo of several MB fits the message's 2 MiB body limit, and the
// camera's EXIF — place, time, device — stays behind), shown as thumbnails until sent.
import { t } from "./i18n.ts";

/** Longest side kept: enough for a model to read a photo; Chinese-CLIP itself looks at 224 px. */
const MAX_SIDE = 1280;
/** At most this many photos a message (the server's limit too). */
export const MAX_IMAGES = 8;

async function asJpeg(file: File): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext("2d")!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return canvas.toDataURL("image/jpeg", 0.85);
}

/**
 * The images of a paste, as data URLs; the paste is kept from the text box only when it held
 * images (pasting text goes on as usual).
 */
export function pastedImages(event: ClipboardEvent): Promise<string[]> {
  const files = [...(event.clipboardData?.files ?? [])].filter((f) => f.type.startsWith("image/"));
  if (files.length === 0) return Promise.resolve([]);
  event.preventDefault();
  return Promise.all(files.map(asJpeg));
}

/** The photos waiting to be sent, each with a button that takes it out. */
export function PastedImages({ images, remove }: { images: string[]; remove: (i: number) => void }) {
  if (images.length === 0) return null;
  return (
    <ul class="pasted" aria-label={t("paste.images")}>
      {images.map((url, i) => (
        <li key={url}>
          <img src={url} alt={t("paste.image", { n: i + 1 })} width={64} height={64} />
          <button type="button" class="quiet" onClick={() => remove(i)}>
            {t("paste.remove", { n: i + 1 })}
          </button>
        </li>
      ))}
    </ul>
  );
}
