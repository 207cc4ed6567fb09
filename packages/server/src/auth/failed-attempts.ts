import ipaddr from "ipaddr.js";
import type { Clock } from "../core/clock.js";
import { ApiError } from "../core/errors/api-error.js";

// Failed API authentications are rate-limited per client id and per source address (issue 16 item 8;
// docs/decisions.md "Security (issue 16)"). The counts live in this process's memory: see the decision
// for why, and for the database table that replaces them once a migration can be generated.

/** At most `limit` failures per key in a fixed window of `windowMs` that opens at the key's first failure. */
export interface FailureRule {
  limit: number;
  windowMs: number;
  /** What one key of the rule is, for the reason: "client id". */
  per: string;
}

export const AUTH_FAILURE_RULES = {
  clientId: { limit: 10, windowMs: 60_000, per: "client id" },
  address: { limit: 30, windowMs: 60_000, per: "source address" },
} as const satisfies Record<string, FailureRule>;

/** Past this many keys the oldest windows are dropped, so a flood of distinct keys cannot grow memory. */
export const MAX_TRACKED_KEYS = 50_000;

interface Window {
  /** When the window closes; set by its first failure (0 while it holds attempts in flight only). */
  end: number;
  failures: number;
  /** Attempts being checked now. */
  pending: number;
}

/** How a counted attempt ended: a wrong credential counts; a success or an unchecked attempt does not. */
export type AttemptOutcome = "failed" | "succeeded" | "unchecked";

/**
 * Failure counts per key and rule. Only failures count. Attempts in flight count toward the limit once
 * the key has failed in its window, so a burst of guesses sent at once after a failure cannot all be
 * checked; a client with no failure is never held back by its own concurrency (many requests at once
 * are normal). The first burst of a fresh key can overshoot the limit by what it has in flight.
 */
export class FailureLimiter<S extends string> {
  private readonly windows = new Map<string, Window>();
  private nextSweep = 0;

  constructor(
    private readonly rules: Record<S, FailureRule>,
    private readonly clock: Clock,
    private readonly maxKeys = MAX_TRACKED_KEYS,
  ) {}

  /**
   * `429 RATE_LIMITED` with Retry-After while any of `keys` is at its rule's limit. Otherwise the attempt
   * is counted as in flight for every key; the returned function settles it with its outcome.
   */
  attempt(keys: Partial<Record<S, string>>): (outcome: AttemptOutcome) => void {
    const now = this.clock.now().getTime();
    const scoped = (Object.entries(keys) as [S, string | undefined][]).filter(
      (entry): entry is [S, string] => entry[1] !== undefined,
    );
    const full = scoped
      .map(([scope, key]) => ({ rule: this.rules[scope], window: this.live(`${scope}:${key}`, now) }))
      .filter(
        ({ rule, window }) =>
          window !== undefined && window.failures > 0 && window.failures + window.pending >= rule.limit,
      );
    if (full.length > 0) throw rateLimited(full, now);
    const taken = scoped.map(([scope, key]) => {
      const id = `${scope}:${key}`;
      const window = this.live(id, now) ?? { end: 0, failures: 0, pending: 0 };
      window.pending += 1;
      this.windows.set(id, window);
      return { id, scope, window };
    });
    this.sweep(now);
    return (outcome) => {
      const settledAt = this.clock.now().getTime();
      for (const { id, scope, window } of taken) {
        window.pending -= 1;
        if (outcome === "failed") {
          if (window.failures === 0) window.end = settledAt + this.rules[scope].windowMs;
          window.failures += 1;
        }
        // A success leaves no trace: a window opened by it would end early for the failures after it.
        if (window.failures === 0 && window.pending === 0 && this.windows.get(id) === window)
          this.windows.delete(id);
      }
    };
  }

  private live(id: string, now: number): Window | undefined {
    const window = this.windows.get(id);
    // A window with attempts in flight stays until they settle; one with only failures ends on time.
    if (window && window.failures > 0 && window.pending === 0 && window.end <= now) {
      this.windows.delete(id);
      return undefined;
    }
    return window;
  }

  /** Drops ended windows once per shortest window, and the oldest keys past `maxKeys`. */
  private sweep(now: number): void {
    if (now >= this.nextSweep) {
      for (const [id, window] of this.windows)
        if (window.failures > 0 && window.pending === 0 && window.end <= now) this.windows.delete(id);
      const shortest = Math.min(...Object.values<FailureRule>(this.rules).map((rule) => rule.windowMs));
      this.nextSweep = now + shortest;
    }
    // A Map iterates in insertion order, and a window is inserted when it opens: oldest first.
    for (const id of this.windows.keys()) {
      if (this.windows.size <= this.maxKeys) break;
      this.windows.delete(id);
    }
  }
}

function rateLimited(full: { rule: FailureRule; window?: Window }[], now: number): ApiError {
  // Allowed again once every full key's window has ended; a clock set back cannot stretch it past one window.
  const waitMs = Math.max(
    ...full.map(({ rule, window }) => Math.min((window?.end ?? now) - now, rule.windowMs)),
  );
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const rules = full.map(({ rule }) => `${rule.limit} per ${rule.per} in ${rule.windowMs / 1000} s`);
  return new ApiError("RATE_LIMITED", {
    reason: `Too many failed authentications (at most ${rules.join(" and ")}); retry in ${seconds} s.`,
    headers: { "retry-after": String(seconds) },
  });
}

/** The token clientId shape (conventions §1.2): other user names can never authenticate. */
const TOKEN_CLIENT_ID = /^[0-9a-f]{32}$/;

/**
 * The key of a source address: an IPv4-mapped IPv6 address is its IPv4 address, and an IPv6 address
 * its /64, the block one host or site is usually given, so that walking a /64 earns no new budget.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === "ipv4") return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`).toString()}/64`;
}

/** Who attempts to authenticate: the Basic user name (absent for a Bearer token) and `request.ip`. */
export interface AttemptSource {
  clientId?: string;
  ip: string;
}

/** Whether `ip` is a loopback address (IPv4-mapped forms included). */
function isLoopback(ip: string): boolean {
  return ipaddr.isValid(ip) && ipaddr.process(ip).range() === "loopback";
}

/**
 * The API's failed-authentication limiter (AUTH_FAILURE_RULES), one per app, on the service clock. A
 * user name that is not a clientId is counted per address only: there is no secret behind it to guess.
 * Loopback is not limited per address unless `limitLoopback`: behind a reverse proxy on the same host
 * every client arrives from it (trustProxy is off), so one guesser would lock every client out.
 */
export function apiAuthAttempts(
  clock: Clock,
  options: { limitLoopback?: boolean } = {},
): (source: AttemptSource) => (outcome: AttemptOutcome) => void {
  const limiter = new FailureLimiter(AUTH_FAILURE_RULES, clock);
  return ({ clientId, ip }) =>
    limiter.attempt({
      ...(options.limitLoopback || !isLoopback(ip) ? { address: addressKey(ip) } : {}),
      ...(clientId !== undefined && TOKEN_CLIENT_ID.test(clientId) ? { clientId } : {}),
    });
}
