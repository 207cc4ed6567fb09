import { LRUCache } from "lru-cache";
import type { SendResult } from "./sender.js";

/** The most sends one platform may have in flight per runner, however well its receiver answers. */
export const MAX_SENDS_PER_PLATFORM = 128;
/** Where a platform starts (and starts again once forgotten). */
export const INITIAL_SENDS_PER_PLATFORM = 16;
/** An answer slower than this says the receiver is queueing: fewer sends at once. */
export const SLOW_ANSWER_MS = 1_000;

/** Whether an attempt says the receiver struggles: 429 or 5xx, a timeout, no connection, or a slow answer. */
function struggling(result: SendResult): boolean {
  if (!result.ok) return result.error !== "ADDRESS_NOT_ALLOWED" && result.error !== "INVALID_URL";
  return result.status === 429 || result.status >= 500 || result.latencyMs >= SLOW_ANSWER_MS;
}

/**
 * How many sends each platform may have in flight, per runner, adapted to its receiver as TCP adapts
 * its window (additive increase, multiplicative decrease): one more after each quick 2xx/409, half after
 * an attempt that says the receiver struggles. A fast receiver soon takes many at once; a slow one is not
 * pushed into timeouts by a backlog, and a hanging one holds few sends.
 */
export class PlatformConcurrency {
  private readonly limits = new LRUCache<string, number>({ max: 1_000 });
  private readonly sending = new Map<string, number>();

  /** Sends the platform may start now. */
  room(platformId: string): number {
    const limit = this.limits.get(platformId) ?? INITIAL_SENDS_PER_PLATFORM;
    return Math.max(0, limit - (this.sending.get(platformId) ?? 0));
  }

  /** The room of every platform that differs from a platform this runner knows nothing of. */
  rooms(): Map<string, number> {
    const rooms = new Map<string, number>();
    for (const platformId of new Set([...this.limits.keys(), ...this.sending.keys()])) {
      const room = this.room(platformId);
      if (room !== INITIAL_SENDS_PER_PLATFORM) rooms.set(platformId, room);
    }
    return rooms;
  }

  started(platformId: string): void {
    this.sending.set(platformId, (this.sending.get(platformId) ?? 0) + 1);
  }

  /** A send ended: with what result (none when it failed before sending). */
  ended(platformId: string, result: SendResult | undefined): void {
    const left = (this.sending.get(platformId) ?? 1) - 1;
    if (left > 0) this.sending.set(platformId, left);
    else this.sending.delete(platformId);
    if (!result) return;
    const limit = this.limits.get(platformId) ?? INITIAL_SENDS_PER_PLATFORM;
    if (struggling(result)) this.limits.set(platformId, Math.max(1, Math.floor(limit / 2)));
    else if (result.ok && ((result.status >= 200 && result.status < 300) || result.status === 409))
      this.limits.set(platformId, Math.min(MAX_SENDS_PER_PLATFORM, limit + 1));
  }
}
