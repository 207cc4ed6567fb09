import { defineConfig } from "vite";

/**
 * The dashboard is served by paysvc at /dashboard/ (packages/server/src/dashboard/), so every asset URL is
 * absolute under that base. No inline script or style is emitted: the server's Content-Security-Policy
 * allows only same-origin files.
 */
// biome-ignore lint/style/noDefaultExport: Vite reads the config from the default export.
export default defineConfig({
  base: "/dashboard/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // The module preload polyfill is an inline-free script, but it is not needed by the browsers served.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: true,
  },
});
