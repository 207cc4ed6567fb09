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

const AT = "2027-03-10T16:00:00.000Z"; // Wednesday 10:00 Chicago (CST)
const SETTLES = "2027-03-11T23:00:00.000Z"; // Thursday 17:00 Chicago (CST)

async function payoutTo(suffix: string) {
  const client = await platformClient(server, AT);
  await client.patch("/config", { feeConfigs: [{ rail: "ACH", fixedAmount: 25 }] });
  const { accountId, externalId } = await payer(client, { suffix, funds: 20_000 });
  const res = await client.post<Payout>(
    "/quotes",
    payout(accountId, externalId, 10_000, { immediatelyExecute: true }),
  );
  expect(res.status).toBe(201);
  return { client, accountId, quote: res.body, id: res.body.transactionId as string };
}

const debit = [
  { amount: -9_975, fee: 0 },
  { amount: -25, fee: -25 },
];
const refunded = [...debit, { amount: 25, fee: 25 }, { amount: 9_975, fee: 0 }];
const failedEvents = [
  "OUTGOING_PAYMENT.FAILED",
  "OUTGOING_PAYMENT.PROCESSING",
  "OUTGOING_PAYMENT.REFUND_COMPLETED",
  "OUTGOING_PAYMENT.REFUND_PENDING",
];

async function expectRefunded(client: TestClient, accountId: string, id: string, failureReason: string) {
  const txn = await transactionOf(client, id);
  expect(txn).toMatchObject({
    status: "FAILED",
    failureReason,
    refund: {
      transactionId: id,
      amount: { amount: 10_000, currency: { code: "USD" } },
      status: "COMPLETED",
      reason: failureReason,
    },
  });
  expect(txn.refund?.reference).toMatch(/^RF-/);
  expect(txn.refund?.settledAt).toBeDefined();
  expect((await changesOf(server, id)).sort((a, b) => a.amount - b.amount)).toEqual(
    [...refunded].sort((a, b) => a.amount - b.amount),
  );
  expect(await balanceOf(server, accountId, client.credentials)).toBe(20_000);
  await ledgerInvariantHolds(server);
}

describe("sandbox payout outcomes by accountNumber suffix (conventions §3.6)", () => {
  test("002 -> FAILED QUOTE_EXECUTION_FAILED, debit refunded (+principal, +fee)", async () => {
    const { client, accountId, quote, id } = await payoutTo("002");
    await server.jobs.runDue();
    await expectRefunded(client, accountId, id, "QUOTE_EXECUTION_FAILED");
    expect((await eventsOf(server, id)).sort()).toEqual(failedEvents);
    expect((await client.get<Payout>(`/quotes/${quote.id}`)).body.status).toBe("FAILED");
  });

  test("003 -> stays PROCESSING about 6 minutes, then COMPLETED", async () => {
    const { client, id } = await payoutTo("003");
    // From the payout's own creation: the platform clock runs on from AT while the payer is set up, by more
    // than a second on a loaded machine.
    const created = Date.parse((await transactionOf(client, id)).createdAt as string);
    await advance(client, new Date(created + 5 * 60_000));
    await server.jobs.runDue();
    expect((await transactionOf(client, id)).status).toBe("PROCESSING");
    await advance(client, new Date(created + 6 * 60_000 + 1_000));
    await server.jobs.runDue();
    expect((await transactionOf(client, id)).status).toBe("COMPLETED");
    expect(await changesOf(server, id)).toEqual(debit);
    await ledgerInvariantHolds(server);
  });

  test("004 -> delivery fails at settlement: FAILED ACCOUNT_CANNOT_RECEIVE, refunded", async () => {
    const { client, accountId, id } = await payoutTo("004");
    await server.jobs.runDue();
    expect((await transactionOf(client, id)).status).toBe("PROCESSING");
    await advance(client, SETTLES);
    await server.jobs.runDue();
    await expectRefunded(client, accountId, id, "ACCOUNT_CANNOT_RECEIVE");
  });

  test("005 -> COMPLETED, then returned: FAILED PAYOUT_RETURNED, refunded on the same transaction", async () => {
    const { client, accountId, id } = await payoutTo("005");
    await advance(client, SETTLES);
    await server.jobs.runDue();
    expect((await transactionOf(client, id)).status).toBe("COMPLETED");
    expect(await balanceOf(server, accountId, client.credentials)).toBe(10_000);
    await advance(client, new Date(Date.parse(SETTLES) + 24 * 3_600_000 + 1_000));
    await server.jobs.runDue();
    await expectRefunded(client, accountId, id, "PAYOUT_RETURNED");
    expect((await eventsOf(server, id)).sort()).toEqual(
      [...failedEvents, "OUTGOING_PAYMENT.COMPLETED"].sort(),
    );
  });

  test("006 -> cancelled before payout: FAILED QUOTE_EXECUTION_FAILED, refunded", async () => {
    const { client, accountId, id } = await payoutTo("006");
    await server.jobs.runDue();
    await expectRefunded(client, accountId, id, "QUOTE_EXECUTION_FAILED");
  });

  test("007 -> payout fails and so does its refund: FAILED, refund.status FAILED, no refund change", async () => {
    const { client, accountId, id } = await payoutTo("007");
    await advance(client, SETTLES);
    await server.jobs.runDue();
    const txn = await transactionOf(client, id);
    expect(txn).toMatchObject({
      status: "FAILED",
      failureReason: "QUOTE_EXECUTION_FAILED",
      refund: { status: "FAILED" },
    });
    expect(txn.refund?.settledAt).toBeUndefined();
    expect(await changesOf(server, id)).toEqual(debit);
    expect(await balanceOf(server, accountId, client.credentials)).toBe(10_000);
    expect((await eventsOf(server, id)).sort()).toEqual([
      "OUTGOING_PAYMENT.FAILED",
      "OUTGOING_PAYMENT.PROCESSING",
      "OUTGOING_PAYMENT.REFUND_FAILED",
      "OUTGOING_PAYMENT.REFUND_PENDING",
    ]);
    await ledgerInvariantHolds(server);
  });

  test("any other suffix -> COMPLETED at expectedSettlementAt", async () => {
    const { client, id } = await payoutTo("001");
    await advance(client, SETTLES);
    await server.jobs.runDue();
    expect((await transactionOf(client, id)).status).toBe("COMPLETED");
    expect(await changesOf(server, id)).toEqual(debit);
    await ledgerInvariantHolds(server);
  });
});
