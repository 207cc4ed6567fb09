import type { Deps } from "../src/core/deps.js";
import { JobRunner } from "../src/core/jobs/jobs.js";
import { jobHandlers } from "../src/jobs.js";
import { request } from "./http-client.js";
import { type Measurement, measureFor } from "./measure.js";

export interface CardBenchContext {
  base: string;
  authorization: string;
  deps: Deps;
}

export interface CardFigures {
  authorization: Measurement;
  clearing: Measurement;
}

/**
 * Card authorizations, then clearings of those authorizations in full, per second through the HTTP API
 * (issues 5 and 20), `inFlight` at once, each in-flight request on its own funded card.
 */
export async function cardsBench(ctx: CardBenchContext, inFlight = 16): Promise<CardFigures> {
  const headers = { authorization: ctx.authorization, "content-type": "application/json" };
  const post = async (path: string, body: unknown) =>
    request(`${ctx.base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const patch = await fetch(`${ctx.base}/config`, {
    method: "PATCH",
    headers,
    body: JSON.stringify({ sandboxSkipVerificationPaperwork: true }),
  });
  if (patch.status !== 200) throw new Error(`PATCH /config: ${patch.status}`);
  const cards: string[] = [];
  for (let i = 0; i < inFlight; i++) {
    const customer = (await (
      await post("/customers", { customerType: "INDIVIDUAL", fullName: `Cardholder ${i}` })
    ).json()) as { id: string };
    const accounts = (await (
      await fetch(`${ctx.base}/customers/internal-accounts?customerId=${customer.id}&currency=USD`, {
        headers,
      })
    ).json()) as { data: { id: string }[] };
    const accountId = accounts.data[0]?.id ?? "";
    await post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 100_000_000 });
    const card = (await (
      await post("/cards", { cardholderId: customer.id, form: "VIRTUAL", fundingSources: [accountId] })
    ).json()) as { id: string };
    cards.push(card.id);
  }
  await new JobRunner(ctx.deps, jobHandlers()).runDue();

  // Per card, so each clearing worker settles its own card's authorizations.
  const authorized: string[][] = cards.map(() => []);
  const merchant = { descriptor: "BENCH COFFEE", mcc: "5814", country: "US" };
  const authorization = await measureFor(
    "card authorization (simulate/authorization)",
    { concurrency: inFlight, expectedStatus: 202 },
    async (_i, worker) => {
      const res = await post(`/sandbox/cards/${cards[worker]}/simulate/authorization`, {
        amount: 1234,
        currency: { code: "USD" },
        merchant,
      });
      if (res.status === 202)
        authorized[worker]?.push(
          ((await res.clone().json()) as { cardTransactionId: string }).cardTransactionId,
        );
      return res;
    },
  );
  const clearing = await measureFor(
    "card clearing, full (simulate/clearing)",
    { concurrency: inFlight, expectedStatus: 202 },
    (_i, worker) => {
      const cardTransactionId = authorized[worker]?.shift();
      if (!cardTransactionId) return undefined;
      return post(`/sandbox/cards/${cards[worker]}/simulate/clearing`, { cardTransactionId, amount: 1234 });
    },
  );
  return { authorization, clearing };
}
