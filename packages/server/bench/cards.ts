import type { Deps } from "../src/core/deps.js";
import { JobRunner } from "../src/core/jobs/jobs.js";
import { jobHandlers } from "../src/jobs.js";
import { measure } from "./measure.js";

export interface CardBenchContext {
  base: string;
  authorization: string;
  deps: Deps;
}

const CARDS = 16;

/** Card authorizations and clearings per second through the HTTP API (issue 5), 16 cards in parallel. */
export async function cardsBench(ctx: CardBenchContext, count = 2000): Promise<void> {
  const headers = { authorization: ctx.authorization, "content-type": "application/json" };
  const post = async (path: string, body: unknown) =>
    fetch(`${ctx.base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const patch = await fetch(`${ctx.base}/config`, {
    method: "PATCH",
    headers,
    body: JSON.stringify({ sandboxSkipVerificationPaperwork: true }),
  });
  if (patch.status !== 200) throw new Error(`PATCH /config: ${patch.status}`);
  const cards: string[] = [];
  for (let i = 0; i < CARDS; i++) {
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

  const authorized: { cardId: string; id: string }[] = [];
  const merchant = { descriptor: "BENCH COFFEE", mcc: "5814", country: "US" };
  const started = performance.now();
  await measure(
    "card authorization (simulate/authorization)",
    count,
    8,
    async (i) => {
      const cardId = cards[i % CARDS] ?? "";
      const res = await post(`/sandbox/cards/${cardId}/simulate/authorization`, {
        amount: 1234,
        currency: { code: "USD" },
        merchant,
      });
      if (res.status === 202)
        authorized.push({
          cardId,
          id: ((await res.clone().json()) as { cardTransactionId: string }).cardTransactionId,
        });
      return res;
    },
    202,
  );
  await measure(
    "card clearing, full (simulate/clearing)",
    authorized.length,
    8,
    (i) => {
      const row = authorized[i];
      return post(`/sandbox/cards/${row?.cardId}/simulate/clearing`, {
        cardTransactionId: row?.id,
        amount: 1234,
      });
    },
    202,
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${"card authorizations + clearings".padEnd(44)} ${String(count * 2).padStart(7)}  ${((count * 2) / seconds).toFixed(0).padStart(6)}/s`,
  );
}
