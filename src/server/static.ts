/**
 * Serves the web console's files, which are embedded in the binary. The content security
 * policy lets the page load and call nothing but this daemon: no CDN, font or analytics host
 * can sneak in, and no other site can frame the console.
 */
import { Hono } from "hono";
import { readAsset, WEB_ASSETS, type WebAssetName } from "../runtime/index.ts";

const CONTENT_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  svg: "image/svg+xml",
};

export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; connect-src 'self'; " +
  "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const isWebAsset = (name: string): name is WebAssetName => (WEB_ASSETS as readonly string[]).includes(name);

async function assetResponse(name: WebAssetName): Promise<Response> {
  const bytes = await readAsset(name);
  const type = CONTENT_TYPES[name.split(".").pop() ?? ""] ?? "application/octet-stream";
  return new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
    headers: { "content-type": type, "cache-control": "no-cache", "content-security-policy": CONSOLE_CSP, "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" },
  });
}

export function consoleRoutes(): Hono {
  const app = new Hono();
  app.get("/", () => assetResponse("index.html"));
  app.get("/assets/:name", (c) => {
    const name = c.req.param("name");
    if (name === "index.html" || !isWebAsset(name)) return c.notFound();
    return assetResponse(name);
  });
  return app;
}
