import type { Db, Tx } from "../db/db.js";
import type { Caller } from "./context.js";

// API credentials resolved to callers, kept briefly so most requests skip the token query (issue 20). What
// a caller holds changes only when its token is deleted or its platform's sandbox clock moves; both drop the
// entries at once in this process (after their commit) and, on PostgreSQL, in every other process through a
// notification sent in the same transaction. Entries also expire, bounding a missed notification.

/** How long a resolved caller is trusted without asking the database again. */
export const CALLER_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;
const CHANNEL = "paysvc_callers";

interface Entry {
  secretHash: string;
  caller: Caller;
  expiresAt: number;
}

class CallerCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every drop: a read that started before a drop must not fill the cache afterwards. */
  private generation = 0;
  /** False while a PostgreSQL deployment cannot hear other processes' drops: nothing is cached then. */
  private trusted: boolean;

  constructor(db: Db) {
    this.trusted = db.listen === undefined;
    db.listen?.(
      CHANNEL,
      (platformId) => this.dropPlatform(platformId),
      (listening) => {
        this.dropAll();
        this.trusted = listening;
      },
    );
  }

  get(clientId: string, now: number): Entry | undefined {
    const entry = this.entries.get(clientId);
    if (entry && entry.expiresAt > now) return entry;
    if (entry) this.entries.delete(clientId);
    return undefined;
  }

  /** The generation to hand back to `set` once the database answered. */
  startRead(): number {
    return this.generation;
  }

  set(clientId: string, secretHash: string, caller: Caller, now: number, readAt: number): void {
    if (!this.trusted || readAt !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(clientId, { secretHash, caller, expiresAt: now + CALLER_TTL_MS });
  }

  dropPlatform(platformId: string): void {
    this.generation++;
    for (const [clientId, entry] of this.entries)
      if (entry.caller.platformId === platformId) this.entries.delete(clientId);
  }

  private dropAll(): void {
    this.generation++;
    this.entries.clear();
  }
}

const caches = new WeakMap<Db, CallerCache>();

/** The cache of callers resolved against `db` (one per database, shared by the apps of this process). */
export function callerCache(db: Db): CallerCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new CallerCache(db);
    caches.set(db, cache);
  }
  return cache;
}

/**
 * In the transaction that changes what a platform's callers hold (a token deleted, the sandbox clock
 * moved): tells the other processes to drop them when it commits. Call dropCallersAfterCommit once it has.
 */
export async function announceCallersChanged(tx: Tx, platformId: string): Promise<void> {
  await tx.query("SELECT pg_notify($1, $2)", [CHANNEL, platformId]);
}

/** After that transaction committed: this process drops the platform's callers at once. */
export function dropCallersAfterCommit(db: Db, platformId: string): void {
  callerCache(db).dropPlatform(platformId);
}
