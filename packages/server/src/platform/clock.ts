import type { Tx } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import { announceCallersChanged, dropCallersAfterCommit } from "../core/http/caller-cache.js";
import type { Caller } from "../core/http/context.js";
import type { JobContext } from "../core/jobs/jobs.js";
import * as store from "./store.js";

/** `GET /sandbox/clock`: the platform's current time. */
export async function readPlatformClock(deps: Deps, caller: Caller): Promise<{ now: string }> {
  const platform = await store.findPlatform(deps.db, caller.platformId);
  if (!platform) throw new ApiError("PLATFORM_NOT_FOUND");
  return { now: new Date(deps.clock.now().getTime() + platform.clock_offset_ms).toISOString() };
}

/**
 * `POST /sandbox/clock/advance {to}`: moves the platform's clock forward to `to`; it never goes back.
 * Time keeps running from there at the service clock's pace.
 */
export async function advancePlatformClock(deps: Deps, caller: Caller, to: string): Promise<{ now: string }> {
  const target = new Date(to);
  const advanced = await deps.db.transaction(async (tx) => {
    const platform = await store.lockPlatform(tx, caller.platformId);
    if (!platform) throw new ApiError("PLATFORM_NOT_FOUND");
    const base = deps.clock.now().getTime();
    const current = base + platform.clock_offset_ms;
    if (target.getTime() < current) {
      throw invalidField(
        "to",
        `must not be earlier than the platform's current time ${new Date(current).toISOString()}`,
      );
    }
    await store.setClockOffset(tx, platform.id, target.getTime() - base);
    // Callers carry the clock offset (core/http/caller-cache.ts).
    await announceCallersChanged(tx, platform.id);
    return { now: target.toISOString() };
  });
  dropCallersAfterCommit(deps.db, caller.platformId);
  return advanced;
}

/** The platform's now inside a job: the service clock plus the platform's sandbox offset. */
export async function jobNow(tx: Tx, context: JobContext): Promise<Date> {
  const platform = await store.findPlatform(tx, context.job.platformId);
  return new Date(context.deps.clock.now().getTime() + (platform?.clock_offset_ms ?? 0));
}
