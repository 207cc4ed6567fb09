import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../server/src/core/clock.js";
import {
  accountInfo,
  type Corridor,
  corridors,
} from "../../server/test/external-accounts/corridor-examples.js";
import { startServer, type TestServer } from "../../server/test/harness.js";
import { PaysvcClient } from "../src/index.js";
import { withEndUserTerms } from "./end-user-terms.js";

// The service clock stands still: the platform's sandbox clock is where the test puts it, and jobs run
// only when the test asks (server.jobs.runDue), at the platform time they are due.
const LAG_MS = 60_000;
let server: TestServer;
let paysvc: PaysvcClient;
beforeAll(async () => {
  server = await startServer({
    clock: new ControlledClock(new Date("2026-05-20T00:00:00Z")),
    settlementLagMs: LAG_MS,
  });
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
});
afterAll(() => server.close());

const byType = (type: string) => corridors.find((c) => c.accountType === type) as Corridor;

async function advance(to: string) {
  await paysvc.sandbox.advanceClock(to);
  await server.jobs.runDue();
}

describe("statements over payouts across borders", () => {
  test("a June with payouts in five corridors, a fee per rail, a returned payout and a cancelled one: openingBalance + sum(amount) == closingBalance", async () => {
    await paysvc.config.update({
      feeConfigs: [
        { rail: "SPEI", fixedAmount: 150 },
        { rail: "SEPA_INSTANT", variableRateBps: 25 },
      ],
    });
    const customer = await paysvc.customers.create({
      customerType: "INDIVIDUAL",
      fullName: "Ada Lovelace",
      ...withEndUserTerms,
    });
    const accounts = await paysvc.internalAccounts.listForCustomers({
      customerId: customer.id,
      currency: "USD",
    });
    const usd = accounts.data[0]?.id as string;
    await advance("2026-05-31T12:00:00.000Z");
    await paysvc.sandbox.fund(usd, 1_000_000);

    await advance("2026-06-03T15:00:00.000Z");
    const external = async (type: string, suffix = "000") => {
      const corridor = byType(type);
      const created = await paysvc.externalAccounts.create({
        customerId: customer.id,
        currency: corridor.currency,
        accountInfo: accountInfo(corridor, corridor.withSuffix(suffix)),
      } as never);
      return created.id;
    };
    const pay = (to: string, amount: number) =>
      paysvc.quotes.create({
        source: { sourceType: "ACCOUNT", accountId: usd },
        destination: { destinationType: "ACCOUNT", accountId: to },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: amount,
        immediatelyExecute: true,
      });
    const mxn = await pay(await external("MXN_ACCOUNT"), 20_000);
    const eur = await pay(await external("EUR_ACCOUNT"), 30_000);
    const brl = await pay(await external("BRL_ACCOUNT"), 15_000);
    const inr = await pay(await external("INR_ACCOUNT"), 12_000);
    // 005: settles, then the receiving bank returns it (refunded on the same transaction)
    const gbp = await pay(await external("GBP_ACCOUNT", "005"), 25_000);
    // cancelled before it settles: refunded at once
    const cancelled = await pay(await external("MXN_ACCOUNT", "111"), 9_000);
    const stopped = await paysvc.transactions.cancel(cancelled.transactionId);
    expect(stopped.status).toBe("FAILED");

    await advance("2026-06-12T15:00:00.000Z");
    await advance("2026-06-20T15:00:00.000Z");
    const status = async (id: string) => (await paysvc.transactions.get(id)).status;
    for (const quote of [mxn, eur, brl, inr]) expect(await status(quote.transactionId)).toBe("COMPLETED");
    expect(await status(gbp.transactionId)).toBe("FAILED");

    await advance(new Date(Date.parse("2026-07-01T05:00:00.000Z") + LAG_MS).toISOString());
    const statement = await paysvc.statements.build({ accountId: usd, month: "2026-06" });
    const sum = statement.lines.reduce((total, line) => total + line.amount, 0);
    expect(statement.openingBalance).toBe(1_000_000);
    expect(statement.openingBalance + sum).toBe(statement.closingBalance);
    // Sent and kept: the four settled payouts with their fees; the returned and the cancelled ones net to 0.
    const kept = [mxn, eur, brl, inr].reduce((total, q) => total + q.totalSendingAmount, 0);
    expect(statement.closingBalance).toBe(1_000_000 - kept);
    const fees = statement.lines.filter((line) => line.fee !== 0);
    // Rail fees are their own changes (SPEI fixed, SEPA_INSTANT by rate); the cancelled payout's fee comes back.
    expect(fees.map((line) => line.fee).sort((a, b) => a - b)).toEqual(
      [-mxn.feesIncluded, -cancelled.feesIncluded, -eur.feesIncluded, cancelled.feesIncluded].sort(
        (a, b) => a - b,
      ),
    );
  });
});
