import { request } from "./http-client.js";
import { type Measurement, measureFor } from "./measure.js";
import type { ApiContext } from "./postings.js";
import { newUsdAccount } from "./webhooks.js";

/**
 * `POST /quotes` with `immediatelyExecute: true` between two internal USD accounts (issue 20), 16 in
 * flight, each in-flight request on its own pair of accounts: what remains shared is the platform
 * (its daily-volume counter), which is what the figure is meant to expose.
 */
export async function quotesBench(ctx: ApiContext, inFlight = 16): Promise<Measurement> {
  const headers = { authorization: ctx.authorization, "content-type": "application/json" };
  const pairs = await Promise.all(
    Array.from({ length: inFlight }, async () => {
      const [from, to] = await Promise.all([
        newUsdAccount(ctx.base, ctx.authorization),
        newUsdAccount(ctx.base, ctx.authorization),
      ]);
      const funded = await fetch(`${ctx.base}/sandbox/internal-accounts/${from.accountId}/fund`, {
        method: "POST",
        headers,
        body: JSON.stringify({ amount: 100_000_000 }),
      });
      if (funded.status !== 200)
        throw new Error(`fund ${from.accountId}: ${funded.status} ${await funded.text()}`);
      return { from: from.accountId, to: to.accountId };
    }),
  );
  return measureFor(
    "quote, immediately executed (POST /quotes)",
    { concurrency: inFlight, expectedStatus: 201 },
    (_i, worker) => {
      const pair = pairs[worker];
      return request(`${ctx.base}/quotes`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          source: { sourceType: "ACCOUNT", accountId: pair?.from },
          destination: { destinationType: "ACCOUNT", accountId: pair?.to },
          lockedCurrencySide: "SENDING",
          lockedCurrencyAmount: 100,
          immediatelyExecute: true,
        }),
      });
    },
  );
}
