import type { FastifyBaseLogger } from "fastify";
import { type Clock, offsetClock } from "./clock.js";
import type { Db } from "./db/db.js";

export type Mode = "sandbox" | "production";

/** Everything the app and the domain functions need, built once in main.ts and passed explicitly. */
export interface Deps {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  mode: Mode;
}

/** The clock of one platform: the service clock moved by the platform's sandbox clock offset. */
export function platformClock(deps: Pick<Deps, "clock">, caller: { clockOffsetMs: number }): Clock {
  return caller.clockOffsetMs === 0 ? deps.clock : offsetClock(deps.clock, caller.clockOffsetMs);
}

/** Now, for timestamps the service assigns on behalf of this platform. */
export function nowFor(deps: Pick<Deps, "clock">, caller: { clockOffsetMs: number }): Date {
  return platformClock(deps, caller).now();
}
