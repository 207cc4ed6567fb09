import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/**
 * Where the dashboard's built files are; each path is the same from src/dashboard/ and dist/dashboard/.
 * In a clone, the dashboard workspace's build (written by its `prepare` on `npm install`/`npm ci`, and by
 * `npm run build -w @paysvc/dashboard`): it comes first, so a copy left by an earlier `npm pack` is never
 * served in its place. In an installed package there is no workspace: the copy that the package's
 * prepack built into dist/dashboard-app/ (scripts/prepack.mjs).
 */
const WORKSPACE_BUILD = fileURLToPath(new URL("../../../dashboard/dist/", import.meta.url));
const PACKAGED_BUILD = fileURLToPath(new URL("../../dist/dashboard-app/", import.meta.url));

/** The first build that has its page; the workspace's when neither has (the 503 page says how to build it). */
export const DASHBOARD_DIST =
  [WORKSPACE_BUILD, PACKAGED_BUILD].find((dir) => existsSync(`${dir}index.html`)) ?? WORKSPACE_BUILD;

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
