import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "./clock.js";
import type { Db } from "./db/db.js";

export type Mode = "sandbox" | "production";

/** Everything the app and the domain functions need, built once in main.ts and passed explicitly. */
export interface Deps {
  db: Db;
  clock: Clock;
  logger: FastifyBaseLogger;
  mode: Mode;
}
