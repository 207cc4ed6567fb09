// A platform's UMA domain (issue 19): the one `PATCH /config umaDomain` set, else a default derived from
// the service's public URL, so that every sandbox platform can receive UMA payments from its first start:
// `<last 12 hex of the platform id>.<public host>`, the host `localhost` when the service is reached by
// an IP address (a UMA domain is a DNS name, without port: docs/guides/uma.md).

/** The default domain's first label, from the platform id; it names the platform (store.ts). */
export const defaultDomainLabel = (platformId: string) =>
  platformId.replace(/-/g, "").slice(-12).toLowerCase();

/** The host default domains hang under: the public URL's, `localhost` for an IP address or none. */
export function publicUmaHost(publicUrl: string | undefined): string {
  if (publicUrl === undefined) return "localhost";
  const host = new URL(publicUrl).hostname.toLowerCase();
  return /^[\d.]+$/.test(host) || host.startsWith("[") || host === "" ? "localhost" : host;
}

/** The platform's UMA domain. */
export function umaDomainOf(
  platform: { id: string; uma_domain?: string | null },
  publicUrl: string | undefined,
): string {
  return platform.uma_domain ?? `${defaultDomainLabel(platform.id)}.${publicUmaHost(publicUrl)}`;
}

/** Whether `domain` has the shape of a default domain under this service's host (its label, if so). */
export function defaultDomainPlatformLabel(
  domain: string,
  publicUrl: string | undefined,
): string | undefined {
  const suffix = `.${publicUmaHost(publicUrl)}`;
  if (!domain.endsWith(suffix)) return undefined;
  const label = domain.slice(0, -suffix.length);
  return /^[0-9a-f]{12}$/.test(label) ? label : undefined;
}
