/** Escapes text for HTML content and attribute values (double- or single-quoted). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Headers every hosted page shares (card reveal, liveness): never cached or stored, no Referer leaking the
 * token in the URL, no sniffing, not indexed. Each page adds its own Content-Security-Policy.
 */
export const hostedPageHeaders: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  pragma: "no-cache",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-robots-tag": "noindex",
};

/**
 * Headers of a hosted form page (liveness, KYC): no scripts or outside resources, the form may post only
 * back here, not embeddable (frame-ancestors 'none' + X-Frame-Options: a consent page inside someone
 * else's frame invites clickjacking).
 */
export const hostedFormPageHeaders: Record<string, string> = {
  ...hostedPageHeaders,
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
};

/** The look every hosted form page shares (liveness, KYC): one card on a grey page; pages add their own rules. */
export const hostedFormPageStyle = `
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #111827; background: #f3f4f6; }
  main { max-width: 32rem; margin: 2rem auto; padding: 1.5rem; background: #fff; border-radius: 0.75rem; }
  h1 { font-size: 1.35rem; margin: 0 0 0.5rem; }
  .hint { color: #4b5563; font-size: 0.9rem; }
  button { font: inherit; padding: 0.6rem 1.2rem; border: 0; border-radius: 0.5rem; background: #1d4ed8; color: #fff; }
`;

/** A complete HTML document with an inline style sheet; `body` is trusted markup (escape its text first). */
export function htmlDocument(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
