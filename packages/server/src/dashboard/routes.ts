import type { FastifyPluginAsync } from "fastify";
import { ApiError } from "../core/errors/api-error.js";
import { htmlDocument } from "../core/http/html-page.js";
import { DASHBOARD_DIST, readAsset, readIndex } from "./files.js";

/**
 * Only this origin's own files and API: no inline script or style, no CDN, no frames. `data:` images are
 * the CSS kit's inline SVG icons; `blob:` is where the statement downloads are made.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const pageHeaders = {
  "content-security-policy": DASHBOARD_CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

const NOT_BUILT = htmlDocument(
  "Dashboard not built",
  "body{font-family:sans-serif;margin:2rem}",
  "<h1>The dashboard is not built</h1><p>Run <code>npm install</code> (or <code>npm run build -w @paysvc/dashboard</code>) and reload.</p>",
);

/**
 * The sandbox dashboard at /dashboard (issue 22 §1): a static page, outside the API's version segment and
 * without credentials; the page itself calls the API with the platform's Basic credentials.
 */
export const dashboardRoutes: FastifyPluginAsync<{ apiBase: string; dist?: string }> = async (
  app,
  { apiBase, dist = DASHBOARD_DIST },
) => {
  const config = { public: true };
  const schema = { hide: true };

  app.get("/dashboard", { config, schema }, async (_request, reply) => {
    const html = await readIndex(apiBase, dist);
    reply.headers(pageHeaders).header("cache-control", "no-cache");
    if (html === null) {
      return reply
        .code(503)
        .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'")
        .type("text/html; charset=utf-8")
        .send(NOT_BUILT);
    }
    return reply.type("text/html; charset=utf-8").send(html);
  });

  app.get<{ Params: { name: string } }>(
    "/dashboard/assets/:name",
    { config, schema },
    async (request, reply) => {
      const asset = await readAsset(request.params.name, dist);
      if (!asset) throw new ApiError("NOT_FOUND", { reason: `No dashboard asset ${request.params.name}.` });
      // Vite names assets by their content hash: a name never changes its bytes.
      return reply
        .headers(pageHeaders)
        .header("cache-control", "public, max-age=31536000, immutable")
        .type(asset.contentType)
        .send(asset.body);
    },
  );
};
