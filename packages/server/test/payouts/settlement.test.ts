import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { balanceOf, ledgerInvariantHolds } from "../quotes/helpers.js";
import {
  advance,
  changesOf,
  eventsOf,
  type Payout,
  payer,
  payout,
  platformClient,
  transactionOf,
} from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const fees = [
  { rail: "ACH", fixedAmount: 25 },
  { rail: "ACH_SAME_DAY", fixedAmount: 100 },
];

/** A payout executed at `at` (a Chicago business-day scenario) on its own platform. */
async function payoutAt(
  at: string,
  rail?: string,
): Promise<{ client: TestClient; quote: Payout; accountId: string }> {
  const client = await platformClient(server, at);
  await client.patch("/config", { feeConfigs: fees });
  const { accountId, externalId } = await payer(client);
  const res = await client.post<Payout>(
    "/quotes",
    payout(accountId, externalId, 10_000, {
      immediatelyExecute: true,
      ...(rail ? { paymentRail: rail } : {}),
    }),
  );
  expect(res.status).toBe(201);
  return { client, quote: res.body, accountId };
}

describe("payout execution (conventions §3.3, §3.5)", () => {
  test("immediatelyExecute -> quote PROCESSING; OUTGOING transaction PROCESSING with rail, mode and timeline", async () => {
    const { client, quote } = await payoutAt("2027-01-14T16:00:00.000Z");
    expect(quote.status).toBe("PROCESSING");
    const txn = await transactionOf(client, quote.transactionId as string);
    expect(txn).toMatchObject({
      type: "OUTGOING",
      status: "PROCESSING",
      direction: "DEBIT",
      quoteId: quote.id,
      paymentRail: "ACH",
      railSelectionMode: "AUTO",
      sentAmount: { amount: 10_000, currency: { code: "USD" } },
      receivedAmount: { amount: 9_975, currency: { code: "USD" } },
      fees: 25,
      destination: { destinationType: "ACCOUNT", accountId: quote.destination.accountId },
      expectedSettlementAt: "2027-01-15T23:00:00.000Z",
    });
    const timeline = (Date.parse("2027-01-15T23:00:00.000Z") - Date.parse(txn.createdAt as string)) / 1000;
    expect(Math.abs((txn.settlementTimelineSeconds as number) - timeline)).toBeLessThanOrEqual(1);
    expect(await eventsOf(server, txn.id)).toEqual(["OUTGOING_PAYMENT.PROCESSING"]);
  });

  test("a withdrawal is two balance changes: principal (fee 0) and the fee (amount = fee); principal = amount - fee", async () => {
    const { client, quote, accountId } = await payoutAt("2027-01-14T16:00:00.000Z");
    expect(await changesOf(server, quote.transactionId as string)).toEqual([
      { amount: -9_975, fee: 0 },
      { amount: -25, fee: -25 },
    ]);
    expect(await balanceOf(server, accountId, client.credentials)).toBe(100_000 - 10_000);
    await ledgerInvariantHolds(server);
  });

  test("execute of a PENDING payout quote moves the money the same way", async () => {
    const client = await platformClient(server);
    const { accountId, externalId } = await payer(client);
    const quote = await client.post<Payout>("/quotes", payout(accountId, externalId, 5_000));
    expect(quote.body.status).toBe("PENDING");
    const executed = await client.post<Payout>(`/quotes/${quote.body.id}/execute`, {});
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe("PROCESSING");
    expect(await changesOf(server, executed.body.transactionId as string)).toEqual([
      { amount: -5_000, fee: 0 },
    ]);
  });

  test("insufficient funds -> 400 INSUFFICIENT_FUNDS, nothing created", async () => {
    const client = await platformClient(server);
    const { accountId, externalId } = await payer(client, { funds: 100 });
    const res = await client.post(
      "/quotes",
      payout(accountId, externalId, 5_000, { immediatelyExecute: true }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INSUFFICIENT_FUNDS" });
    const rows = await server.db.query(
      "SELECT id FROM transactions WHERE account_id = $1 AND type = 'OUTGOING'",
      [accountId],
    );
    expect(rows).toEqual([]);
  });
});

describe("expectedSettlementAt: business days in America/Chicago (conventions §1.5, §3.5)", () => {
  test.each([
    ["ACH on a Thursday -> Friday", "2027-01-14T16:00:00.000Z", undefined, "2027-01-15T23:00:00.000Z"],
    [
      "ACH on a Friday -> Tuesday after MLK Day (a Federal holiday)",
      "2027-01-15T16:00:00.000Z",
      undefined,
      "2027-01-19T23:00:00.000Z",
    ],
    ["ACH on a Saturday -> Monday", "2027-01-09T16:00:00.000Z", undefined, "2027-01-11T23:00:00.000Z"],
    [
      "ACH on Friday 2027-07-02 -> Tuesday (Independence Day observed Monday)",
      "2027-07-02T15:00:00.000Z",
      undefined,
      "2027-07-06T22:00:00.000Z",
    ],
    [
      "ACH_SAME_DAY on a Friday before the cut-off -> that Friday",
      "2027-01-15T16:00:00.000Z",
      "ACH_SAME_DAY",
      "2027-01-15T23:00:00.000Z",
    ],
    [
      "ACH_SAME_DAY on a Friday after the 14:45 cut-off -> Tuesday after MLK Day",
      "2027-01-15T21:00:00.000Z",
      "ACH_SAME_DAY",
      "2027-01-19T23:00:00.000Z",
    ],
    [
      "ACH_SAME_DAY on a Federal holiday -> next business day",
      "2027-01-18T16:00:00.000Z",
      "ACH_SAME_DAY",
      "2027-01-19T23:00:00.000Z",
    ],
  ])("%s", async (_name, at, rail, expected) => {
    const { client, quote } = await payoutAt(at, rail);
    const txn = await transactionOf(client, quote.transactionId as string);
    expect(txn.expectedSettlementAt).toBe(expected);
    expect(txn.railSelectionMode).toBe(rail ? "MANUAL" : "AUTO");
  });
});

describe("settlement by job", () => {
  test("the job at expectedSettlementAt completes it: COMPLETED, settledAt, OUTGOING_PAYMENT.COMPLETED", async () => {
    const { client, quote } = await payoutAt("2027-01-14T16:00:00.000Z");
    const id = quote.transactionId as string;
    await server.jobs.runDue();
    expect((await transactionOf(client, id)).status).toBe("PROCESSING");
    await advance(client, "2027-01-15T23:00:00.000Z");
    await server.jobs.runDue();
    const txn = await transactionOf(client, id);
    expect(txn.status).toBe("COMPLETED");
    expect(Date.parse(txn.settledAt as string)).toBeGreaterThanOrEqual(
      Date.parse("2027-01-15T23:00:00.000Z"),
    );
    expect((await client.get<Payout>(`/quotes/${quote.id}`)).body.status).toBe("COMPLETED");
    expect(await eventsOf(server, id)).toEqual(["OUTGOING_PAYMENT.PROCESSING", "OUTGOING_PAYMENT.COMPLETED"]);
    expect(await changesOf(server, id)).toHaveLength(2);
    await ledgerInvariantHolds(server);
  });

  test("the settlement job is idempotent: run again, nothing changes", async () => {
    const { client, quote } = await payoutAt("2027-01-14T16:00:00.000Z");
    await advance(client, "2027-01-16T00:00:00.000Z");
    await server.jobs.runDue();
    const id = quote.transactionId as string;
    await server.db.query(
      "UPDATE jobs SET state = 'PENDING', locked_until = NULL WHERE payload->>'transactionId' = $1",
      [id],
    );
    await server.jobs.runDue();
    expect(await eventsOf(server, id)).toEqual(["OUTGOING_PAYMENT.PROCESSING", "OUTGOING_PAYMENT.COMPLETED"]);
    expect((await transactionOf(client, id)).status).toBe("COMPLETED");
  });
});
