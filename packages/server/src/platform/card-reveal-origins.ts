import type { FieldError } from "../core/errors/api-error.js";

/** What a sandbox platform's reveal page may be framed by when it configured no origins: local pages. */
const SANDBOX_DEFAULT = ["'self'", "http://localhost:*", "http://127.0.0.1:*", "https://localhost:*"];

/**
 * The reveal page's CSP `frame-ancestors`: the platform's configured origins (`PATCH /config`
 * `cardRevealOrigins`), else nothing in production and local pages in the sandbox; never `*`.
 */
export function frameAncestors(origins: readonly string[], environment: "SANDBOX" | "PRODUCTION"): string {
  if (origins.length > 0) return origins.join(" ");
  return environment === "SANDBOX" ? SANDBOX_DEFAULT.join(" ") : "'none'";
}

/** Each entry must be exactly an origin (scheme, host, port), https outside the sandbox. */
export function revealOriginProblems(
  origins: readonly string[],
  environment: "SANDBOX" | "PRODUCTION",
): FieldError[] {
  const errors: FieldError[] = [];
  origins.forEach((origin, i) => {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    const field = `cardRevealOrigins[${i}]`;
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.origin !== origin)
      errors.push({ field, message: "must be an origin: scheme://host[:port], no path, no trailing slash" });
    else if (environment !== "SANDBOX" && url.protocol !== "https:")
      errors.push({ field, message: "must be https outside the sandbox" });
  });
  return errors;
}
