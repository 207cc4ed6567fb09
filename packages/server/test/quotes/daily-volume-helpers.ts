import { expect } from "vitest";
import { setDailyVolumeLimit } from "../../src/quotes/daily-volume.js";
import type { TestClient, TestServer } from "../harness.js";
import { fund, newAccount } from "./helpers.js";

export type ErrorBody = { code: string; reason: string; details?: Record<string, unknown> };

/** A fresh sandbox platform with its own client, clock and daily volume limit (USD cents). */
export async function limitedPlatform(server: TestServer, limit?: number): Promise<TestClient> {
  const credentials = await server.newPlatform();
  if (limit !== undefined) await setDailyVolumeLimit(server.deps, credentials.platformId, limit);
  return server.client.as(credentials);
}

/** Two accounts of the client's platform, the first funded. */
export async function pair(server: TestServer, client: TestClient, funds: number, currency = "USD") {
  const auth = client.credentials;
  const from = await newAccount(server, { auth, currency });
  const to = await newAccount(server, { auth, currency });
  if (funds > 0) await fund(server, from, funds, auth);
  return { from, to };
}

/** The platform's counted volume for a Chicago day, USD cents (0 when nothing counted). */
export async function volumeOf(server: TestServer, client: TestClient, day: string): Promise<number> {
  const rows = await server.db.query<{ volume: number }>(
    "SELECT volume FROM daily_volumes WHERE platform_id = $1 AND day = $2",
    [client.credentials.platformId, day],
  );
  return rows[0]?.volume ?? 0;
}

export async function advance(client: TestClient, to: Date | string) {
  const res = await client.post("/sandbox/clock/advance", { to: new Date(to).toISOString() });
  expect(res.status).toBe(200);
}

export async function platformNow(client: TestClient): Promise<Date> {
  return new Date((await client.get<{ now: string }>("/sandbox/clock")).body.now);
}
