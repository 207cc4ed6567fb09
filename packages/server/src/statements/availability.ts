import { formatChicago } from "../core/chicago.js";
import { ApiError } from "../core/errors/api-error.js";

/**
 * A window ending at `end` is answered only once card settlement for `end` has closed, i.e. when
 * end <= now - settlementLag: clearings may be dated back by up to the lag (Deps.settlementLagMs), so
 * from then on no posting can land inside the window and its answer never changes (interface "List
 * balance changes" rule 4). Otherwise `409 NOT_YET_AVAILABLE` with Retry-After in whole seconds
 * (conventions §1.7), rounded up so a client that waits exactly that long is never early.
 */
export function assertWindowClosed(end: Date, now: Date, settlementLagMs: number, label: string): void {
  const availableAt = end.getTime() + settlementLagMs;
  if (availableAt <= now.getTime()) return;
  const seconds = Math.max(1, Math.ceil((availableAt - now.getTime()) / 1000));
  throw new ApiError("NOT_YET_AVAILABLE", {
    reason:
      `Card settlement for the ${label} ${formatChicago(end)} has not closed; ` +
      `it closes at ${new Date(availableAt).toISOString()}, in ${seconds} s.`,
    headers: { "retry-after": String(seconds) },
  });
}
