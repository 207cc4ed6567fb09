import { request } from "./http-client.js";
import { type Measurement, measureFor } from "./measure.js";
import { newUsdAccount } from "./webhooks.js";

export interface ApiContext {
  base: string;
  authorization: string;
}

/**
 * Postings through the API (issue 20): the sandbox funding, one posting and its events in one
 * transaction, 16 in flight, each in-flight request on its own account (as each connection of the
 * commit loop has its own row). No Idempotency-Key: the figure is the posting, not the key's commits.
 */
export async function postingsBench(ctx: ApiContext, inFlight = 16): Promise<Measurement> {
  const headers = { authorization: ctx.authorization, "content-type": "application/json" };
  const accounts = await Promise.all(
    Array.from(
      { length: inFlight },
      async () => (await newUsdAccount(ctx.base, ctx.authorization)).accountId,
    ),
  );
  const body = JSON.stringify({ amount: 1 });
  return measureFor("postings (POST sandbox fund)", { concurrency: inFlight }, (_i, worker) =>
    request(`${ctx.base}/sandbox/internal-accounts/${accounts[worker]}/fund`, {
      method: "POST",
      headers,
      body,
    }),
  );
}
