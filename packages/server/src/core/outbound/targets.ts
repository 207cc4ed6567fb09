import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { Environment } from "../http/context.js";

// Which addresses the service's own outbound requests (webhook deliveries, OIDC key sets) may reach
// (issue 16, docs/decisions.md "Security (issue 16)"). Ranges are classified by ipaddr.js, the library
// request-filtering-agent itself uses at connect time, so PATCH /config and the socket agree.

/** The service-wide setting (PAYSVC_ALLOW_PRIVATE_TARGETS, config.ts) and, for tests, the resolver. */
export interface OutboundSettings {
  /** Sandbox platforms may reach loopback and private addresses (local development). */
  allowPrivateTargets: boolean;
  /** Resolves names at connect time; `dns.lookup` when absent. Tests inject one to fake DNS answers. */
  lookup?: LookupFunction;
}

/** What one platform's outbound requests may reach. */
export interface TargetPolicy {
  allowPrivate: boolean;
  lookup?: LookupFunction;
}

/** Production platforms: public unicast addresses only, whatever the service setting. */
export const PUBLIC_ONLY: TargetPolicy = Object.freeze({ allowPrivate: false });

/**
 * The policy of a platform: private targets only for sandbox platforms while the service allows them.
 * Deps built without the setting (the test harness, whose servers listen on loopback) allow them, as
 * the setting's own default does for a service listening on loopback.
 */
export function targetPolicy(settings: OutboundSettings | undefined, environment: Environment): TargetPolicy {
  const allowPrivate = environment === "SANDBOX" && (settings?.allowPrivateTargets ?? true);
  return settings?.lookup ? { allowPrivate, lookup: settings.lookup } : { allowPrivate };
}

/** ipaddr.js range names, as a person reads them. */
const rangeLabels: Record<string, string> = {
  unspecified: "an unspecified (0.0.0.0 or ::)",
  loopback: "a loopback",
  private: "a private",
  linkLocal: "a link-local",
  carrierGradeNat: "a carrier-grade NAT",
  uniqueLocal: "a unique local (fc00::/7)",
  multicast: "a multicast",
  broadcast: "a broadcast",
};

/**
 * Ranges no platform may target even while private targets are allowed: the unspecified address
 * (request-filtering-agent refuses it too) and link-local, where cloud metadata services live.
 */
export const NEVER_TARGETED: ReadonlySet<string> = new Set(["unspecified", "linkLocal"]);

/** The ipaddr.js range of an address; an IPv4-mapped IPv6 address is classified as its IPv4 address. */
export function addressRange(address: string): string {
  return ipaddr.process(address).range();
}

/** `localhost` and its subdomains resolve to loopback without asking DNS (RFC 6761). */
function isLocalhostName(host: string): boolean {
  const name = host.endsWith(".") ? host.slice(0, -1) : host;
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * Why `url` may not be an outbound target under `policy`, or undefined. It sees only what the URL
 * says (credentials, an IP literal, a localhost name); a name's DNS answer is checked at connect time.
 */
export function targetProblem(url: URL, policy: Pick<TargetPolicy, "allowPrivate">): string | undefined {
  if (url.username !== "" || url.password !== "") return "must not contain credentials (user:pass@)";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host) !== 0) {
    const range = addressRange(host);
    if (range === "unicast") return undefined;
    if (policy.allowPrivate && !NEVER_TARGETED.has(range)) return undefined;
    return `must be a public address: ${host} is ${rangeLabels[range] ?? `a reserved (${range})`} address`;
  }
  if (isLocalhostName(host) && !policy.allowPrivate) return "must be a public address: localhost is loopback";
  return undefined;
}
