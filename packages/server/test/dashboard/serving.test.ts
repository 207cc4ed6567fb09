import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { API_VERSION } from "../../src/core/http/version.js";
import { DASHBOARD_CSP, dashboardRoutes } from "../../src/dashboard/routes.js";
import { startServer, type TestServer } from "../harness.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
}, 300_000);
afterAll(async () => {
  await server?.close();
});

/** The page's own script and stylesheet URLs. */
function assetUrls(html: string): string[] {
  const tags = /<script\b[^>]*\bsrc="([^"]+)"|<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g;
  return [...html.matchAll(tags)].map((m) => m[1] ?? m[2] ?? "");
}

describe("the dashboard is served by paysvc at /dashboard", () => {
  test("the page answers without credentials, outside the version segment, with a strict Content-Security-Policy", async () => {
    const page = await fetch(`${server.origin}/dashboard`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toBe(DASHBOARD_CSP);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toMatch(/https?:/);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const html = await page.text();
    // Not an inline script anywhere: each <script> names its file on this origin.
    for (const script of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      expect(script[1]).toMatch(/\bsrc="\/dashboard\/assets\//);
      expect(script[2]?.trim()).toBe("");
    }
    expect(html).not.toMatch(/\bstyle="/);
    expect(html).toContain(`<meta name="paysvc-api-base" content="/${API_VERSION}" />`);
    // The API's version segment has no dashboard.
    const versioned = await server.client.get(`/dashboard`);
    expect(versioned.status).toBe(404);
  });

  test("every script and stylesheet the page names is served from this origin with its content type", async () => {
    const html = await (await fetch(`${server.origin}/dashboard/`)).text();
    const urls = assetUrls(html);
    expect(urls.some((u) => u.endsWith(".js"))).toBe(true);
    expect(urls.some((u) => u.endsWith(".css"))).toBe(true);
    for (const url of urls) {
      expect(url.startsWith("/dashboard/assets/"), url).toBe(true);
      const asset = await fetch(`${server.origin}${url}`);
      expect(asset.status, url).toBe(200);
      expect(asset.headers.get("content-type")).toMatch(
        url.endsWith(".js") ? /^text\/javascript/ : /^text\/css/,
      );
      expect(asset.headers.get("cache-control")).toContain("immutable");
      expect(asset.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  test.each([
    ["an unknown asset", "/dashboard/assets/nothing-here.js"],
    ["a name outside the assets folder", "/dashboard/assets/..%2F..%2Fpackage.json"],
    ["a file type the dashboard does not have", "/dashboard/assets/index.html"],
  ])("%s is 404 NOT_FOUND in the error body", async (_label, path) => {
    const response = await fetch(`${server.origin}${path}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  test("an unbuilt dashboard answers 503 with how to build it", async () => {
    const app = Fastify();
    await app.register(dashboardRoutes, {
      apiBase: `/${API_VERSION}`,
      dist: `${mkdtempSync(join(tmpdir(), "dash-"))}/`,
    });
    try {
      const response = await app.inject({ method: "GET", url: "/dashboard" });
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain("npm run build -w @paysvc/dashboard");
    } finally {
      await app.close();
    }
  });
});
