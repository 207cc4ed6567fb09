import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/**
 * The dashboard's built files (packages/dashboard/dist, written by that workspace's `prepare` on
 * `npm install`/`npm ci`). The same relative path holds from src/dashboard/ and from dist/dashboard/.
 */
export const DASHBOARD_DIST = fileURLToPath(new URL("../../../dashboard/dist/", import.meta.url));

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  woff2: "font/woff2",
};

/** An asset name as Vite writes them (`index-<hash>.js`): one segment, no dot-dot, a known type. */
const ASSET_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(js|css|svg|png|woff2)$/;

export interface Asset {
  body: Buffer;
  contentType: string;
}

/** A file of dist/assets by its name, or null when the name is not an asset's or no such file exists. */
export async function readAsset(name: string, dist = DASHBOARD_DIST): Promise<Asset | null> {
  const match = ASSET_NAME.exec(name);
  const type = match?.[1] ? TYPES[match[1]] : undefined;
  if (!type) return null;
  try {
    return { body: await readFile(`${dist}assets/${name}`), contentType: type };
  } catch {
    return null;
  }
}

/**
 * index.html with the API's base path written into its `paysvc-api-base` meta tag, so the page calls the
 * versioned API on this origin; null when the dashboard was not built.
 */
export async function readIndex(apiBase: string, dist = DASHBOARD_DIST): Promise<string | null> {
  try {
    const html = await readFile(`${dist}index.html`, "utf8");
    return html.replace(
      '<meta name="paysvc-api-base" content="" />',
      `<meta name="paysvc-api-base" content="${apiBase}" />`,
    );
  } catch {
    return null;
  }
}
