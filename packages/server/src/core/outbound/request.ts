import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { type ClientRequest, request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { addressRange, NEVER_TARGETED, type TargetPolicy, targetProblem } from "./targets.js";

/**
 * What went wrong with an outbound request, as recorded and shown: a class, never the socket's text
 * (which would hand a port scanner to anyone who can read the delivery log).
 */
export const OUTBOUND_ERROR_CLASSES = [
  "INVALID_URL",
  "ADDRESS_NOT_ALLOWED",
  "DNS_ERROR",
  "CONNECTION_REFUSED",
  "CONNECTION_RESET",
  "HOST_UNREACHABLE",
  "TIMEOUT",
  "TLS_ERROR",
  "PROTOCOL_ERROR",
  "CONNECTION_ERROR",
] as const;
export type OutboundErrorClass = (typeof OUTBOUND_ERROR_CLASSES)[number];

/**
 * The agents filter by the resolved address inside the socket's own lookup: the address that passed
 * is the one connected to (no second resolution a rebinding DNS server could answer differently), and
 * the Host header and TLS SNI stay the URL's name. Every new connection is checked; a kept-alive one is
 * reused only by the agent, policy and resolver whose check it passed (issue 20: a connection per
 * delivery cost a handshake each and left thousands of sockets in TIME_WAIT).
 */
interface AgentFamily {
  http: RequestFilteringHttpAgent;
  https: RequestFilteringHttpsAgent;
}

/**
 * An idle kept-alive socket is closed after this, before the 5 s at which Node servers (the default
 * keepAliveTimeout) and many proxies close theirs, so a reused socket is rarely one the peer is closing.
 */
export const IDLE_SOCKET_MS = 4_000;

function agentFamily(allowPrivateIPAddress: boolean): AgentFamily {
  const options = { allowPrivateIPAddress, keepAlive: true, timeout: IDLE_SOCKET_MS };
  return { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
}

const agents = { publicOnly: agentFamily(false), privateAllowed: agentFamily(true) };
// An injected resolver (tests' fake DNS) gets agents of its own: a socket one resolver's answer vetted is
// never reused for another's.
const resolverAgents = new WeakMap<LookupFunction, typeof agents>();

function agentsFor(policy: TargetPolicy): AgentFamily {
  let families = agents;
  if (policy.lookup) {
    families = resolverAgents.get(policy.lookup) ?? {
      publicOnly: agentFamily(false),
      privateAllowed: agentFamily(true),
    };
    resolverAgents.set(policy.lookup, families);
  }
  return policy.allowPrivate ? families.privateAllowed : families.publicOnly;
}

const notAllowed = (hostname: string) =>
  Object.assign(new Error(`${hostname} resolves to an address no request may reach`), {
    code: "ERR_ADDRESS_NOT_ALLOWED",
  });

/**
 * The resolver handed to the agent, which checks its answer against the policy: this layer refuses
 * what no policy allows (link-local metadata services, the unspecified address), even when private
 * targets are allowed.
 */
function guardedLookup(base: LookupFunction): LookupFunction {
  return (hostname, options, callback) =>
    base(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const answers: LookupAddress[] = Array.isArray(address) ? address : [{ address, family: family ?? 0 }];
      if (answers.some((a) => NEVER_TARGETED.has(addressRange(a.address))))
        return callback(notAllowed(hostname), address, family);
      callback(null, address, family);
    });
}

/** A refusal before any socket: the URL itself (scheme, credentials, IP literal) is not a target. */
export function preflight(url: string, policy: TargetPolicy): { url: URL } | { error: OutboundErrorClass } {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { error: "INVALID_URL" };
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return { error: "INVALID_URL" };
  if (target.username !== "" || target.password !== "") return { error: "INVALID_URL" };
  if (targetProblem(target, policy)) return { error: "ADDRESS_NOT_ALLOWED" };
  return { url: target };
}

/** An http(s) request through the filtering agent of `policy`; the URL must have passed `preflight`. */
export function outboundRequest(url: URL, policy: TargetPolicy, options: RequestOptions): ClientRequest {
  const family = agentsFor(policy);
  const https = url.protocol === "https:";
  const lookup = guardedLookup(policy.lookup ?? (dnsLookup as LookupFunction));
  return (https ? httpsRequest : httpRequest)(url, {
    ...options,
    agent: https ? family.https : family.http,
    lookup,
  });
}

/** An error that `classifyError` reads as a timeout (the sender's own connect timer). */
export const timeoutError = () => Object.assign(new Error("timed out"), { code: "ETIMEDOUT" });

const tlsCode = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_)|SELF_SIGNED|^EPROTO$|^HOSTNAME_MISMATCH$/;

/** The class of a request or response error; anything unrecognised is CONNECTION_ERROR. */
export function classifyError(error: unknown): OutboundErrorClass {
  const e = (error ?? {}) as { name?: unknown; code?: unknown; message?: unknown };
  const code = typeof e.code === "string" ? e.code : "";
  if (e.name === "AbortError" || e.name === "TimeoutError" || code === "ETIMEDOUT") return "TIMEOUT";
  // request-filtering-agent's refusal carries no code, only this wording (pinned by test/webhooks/ssrf-*).
  if (code === "ERR_ADDRESS_NOT_ALLOWED" || (code === "" && /is not allowed/.test(String(e.message))))
    return "ADDRESS_NOT_ALLOWED";
  if (["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "ENODATA", "ESERVFAIL"].includes(code)) return "DNS_ERROR";
  if (code === "ECONNREFUSED") return "CONNECTION_REFUSED";
  if (code === "ECONNRESET" || code === "EPIPE") return "CONNECTION_RESET";
  if (["EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "ENETDOWN"].includes(code)) return "HOST_UNREACHABLE";
  if (tlsCode.test(code)) return "TLS_ERROR";
  if (code.startsWith("HPE_")) return "PROTOCOL_ERROR";
  return "CONNECTION_ERROR";
}
