/** Image bytes carried inline in a `data:image/…;base64,…` URL (how chat messages paste images). */
const DATA_URL = /^data:image\/[\w.+-]+;base64,([A-Za-z0-9+/=\s]+)$/;

export function dataUrlImageBytes(url: string): Uint8Array | undefined {
  const inline = DATA_URL.exec(url);
  return inline ? new Uint8Array(Buffer.from(inline[1]!, "base64")) : undefined;
}
