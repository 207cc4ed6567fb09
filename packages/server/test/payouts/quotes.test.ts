import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { type ErrorBody, ledgerInvariantHolds } from "../quotes/helpers.js";
import { type Payout, payer, payout, platformClient } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.client.patch("/config", {
    feeConfigs: [
      { rail: "ACH", fixedAmount: 25 },
      { rail: "ACH_SAME_DAY", variableRateBps: 100, fixedAmount: 50 },
    ],
  });
});
afterAll(() => server.close());

describe("payout quotes: validation (conventions §3.5, §4.1)", () => {
  test("an unknown external account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const { accountId } = await payer(server.client);
    const unknown = "ExternalAccount:01a2031b-3af6-74b7-af52-45f72eabe452";
    const res = await server.client.post<ErrorBody>("/quotes", payout(accountId, unknown, 1_000));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "ACCOUNT_NOT_FOUND", reason: `No external account ${unknown}.` });
  });

  test("another customer's external account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const { accountId } = await payer(server.client);
    const other = await payer(server.client, { funds: 0 });
    const res = await server.client.post<ErrorBody>("/quotes", payout(accountId, other.externalId, 1_000));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("ACCOUNT_NOT_FOUND");
  });

  test("another platform's external account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const { accountId } = await payer(server.client);
    const foreign = await payer(await platformClient(server), { funds: 0 });
    const res = await server.client.post<ErrorBody>("/quotes", payout(accountId, foreign.externalId, 1_000));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("ACCOUNT_NOT_FOUND");
  });

  test("bank validation pending (suffix 008) -> 409 BANK_ACCOUNT_VALIDATION_PENDING", async () => {
    const { accountId, externalId } = await payer(server.client, { suffix: "008" });
    const res = await server.client.post<ErrorBody>("/quotes", payout(accountId, externalId, 1_000));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: "BANK_ACCOUNT_VALIDATION_PENDING",
      reason: `External account ${externalId} is still being validated; retry once it is ACTIVE.`,
    });
  });

  test("bank validation failed, INACTIVE (suffix 009) -> 400 INVALID_BANK_ACCOUNT", async () => {
    const { accountId, externalId } = await payer(server.client, { suffix: "009" });
    const res = await server.client.post<ErrorBody>("/quotes", payout(accountId, externalId, 1_000));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "INVALID_BANK_ACCOUNT",
      reason: `External account ${externalId} is INACTIVE; it failed bank validation.`,
    });
  });

  test.each(["SEPA", "PIX", "SPEI"])(
    "paymentRail %s, which the USD corridor does not serve -> 400 INVALID_INPUT",
    async (rail) => {
      const { accountId, externalId } = await payer(server.client);
      const res = await server.client.post<ErrorBody>(
        "/quotes",
        payout(accountId, externalId, 1_000, { paymentRail: rail }),
      );
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("INVALID_INPUT");
      expect(res.body.details?.errors.map((e) => e.field)).toEqual(["destination.paymentRail"]);
    },
  );
});

describe("payout quotes: rail and fee", () => {
  test("no paymentRail -> ACH, railSelectionMode AUTO, fee = the ACH feeConfigs entry", async () => {
    const { accountId, externalId } = await payer(server.client);
    const res = await server.client.post<Payout>("/quotes", payout(accountId, externalId, 10_000));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "PENDING",
      paymentRail: "ACH",
      railSelectionMode: "AUTO",
      destination: { destinationType: "ACCOUNT", accountId: externalId, currency: "USD", paymentRail: "ACH" },
      totalSendingAmount: 10_000,
      totalReceivingAmount: 9_975,
      feesIncluded: 25,
    });
  });

  test("pinned ACH_SAME_DAY -> railSelectionMode MANUAL, fee = the ACH_SAME_DAY feeConfigs entry", async () => {
    const { accountId, externalId } = await payer(server.client);
    const res = await server.client.post<Payout>(
      "/quotes",
      payout(accountId, externalId, 10_000, { paymentRail: "ACH_SAME_DAY" }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      paymentRail: "ACH_SAME_DAY",
      railSelectionMode: "MANUAL",
      totalSendingAmount: 10_000,
      totalReceivingAmount: 9_850,
      feesIncluded: 150,
    });
  });

  test("pinned ACH -> railSelectionMode MANUAL", async () => {
    const { accountId, externalId } = await payer(server.client);
    const res = await server.client.post<Payout>(
      "/quotes",
      payout(accountId, externalId, 10_000, { paymentRail: "ACH" }),
    );
    expect(res.body).toMatchObject({ paymentRail: "ACH", railSelectionMode: "MANUAL" });
  });

  test("the internal ACCOUNT -> ACCOUNT transfer still rejects paymentRail", async () => {
    const a = await payer(server.client);
    const b = await payer(server.client, { funds: 0 });
    const res = await server.client.post<ErrorBody>(
      "/quotes",
      payout(a.accountId, b.accountId, 100, { paymentRail: "ACH" }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details?.errors.map((e) => e.field)).toEqual(["destination.paymentRail"]);
  });
});

describe("payout quotes: the USD corridor's other rails", () => {
  test.each([
    ["RTP", 10],
    ["FEDNOW", 10],
  ])("a pinned %s payout -> 201 MANUAL, settling %i seconds after execution", async (rail, seconds) => {
    const client = await platformClient(server);
    const { accountId, externalId } = await payer(client);
    const res = await client.post<Payout>(
      "/quotes",
      payout(accountId, externalId, 1_000, { paymentRail: rail, immediatelyExecute: true }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ paymentRail: rail, railSelectionMode: "MANUAL" });
    const transaction = await client.get<Record<string, unknown>>(`/transactions/${res.body.transactionId}`);
    expect(transaction.body.settlementTimelineSeconds).toBe(seconds);
  });

  test("a pinned WIRE payout settles at 17:00 Chicago the same business day before the cut-off", async () => {
    const client = await platformClient(server, "2026-12-02T15:00:00.000Z");
    const { accountId, externalId } = await payer(client);
    const res = await client.post<Payout>(
      "/quotes",
      payout(accountId, externalId, 1_000, { paymentRail: "WIRE", immediatelyExecute: true }),
    );
    const transaction = await client.get<Record<string, unknown>>(`/transactions/${res.body.transactionId}`);
    expect(transaction.body.expectedSettlementAt).toBe("2026-12-02T23:00:00.000Z");
  });
});

describe("ACH_SAME_DAY per-entry cap (conventions §3.5): rejected, never downgraded", () => {
  const rail = { paymentRail: "ACH_SAME_DAY", platformFeeOverride: 0 };

  test("before 2027-09-17: above USD 1,000,000.00 -> 400 AMOUNT_OUT_OF_RANGE; at the cap -> 201", async () => {
    const client = await platformClient(server);
    const { accountId, externalId } = await payer(client, { funds: 0 });
    const above = await client.post<ErrorBody>("/quotes", payout(accountId, externalId, 100_000_001, rail));
    expect(above.status).toBe(400);
    expect(above.body.code).toBe("AMOUNT_OUT_OF_RANGE");
    expect(above.body.reason).toContain("per-payment cap of 100000000");
    const at = await client.post<Payout>("/quotes", payout(accountId, externalId, 100_000_000, rail));
    expect(at.status).toBe(201);
    expect(at.body.paymentRail).toBe("ACH_SAME_DAY");
  });

  test("2027-09-16 23:59 Chicago: the old cap still applies", async () => {
    const client = await platformClient(server, "2027-09-17T04:59:00.000Z");
    const { accountId, externalId } = await payer(client, { funds: 0 });
    const res = await client.post<ErrorBody>("/quotes", payout(accountId, externalId, 100_000_001, rail));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("AMOUNT_OUT_OF_RANGE");
  });

  test("from 2027-09-17 (Chicago date): up to USD 10,000,000.00 -> 201; above -> 400 AMOUNT_OUT_OF_RANGE", async () => {
    const client = await platformClient(server, "2027-09-17T05:00:00.000Z");
    const { accountId, externalId } = await payer(client, { funds: 0 });
    const raised = await client.post<Payout>("/quotes", payout(accountId, externalId, 1_000_000_000, rail));
    expect(raised.status).toBe(201);
    expect(raised.body.totalReceivingAmount).toBe(1_000_000_000);
    const above = await client.post<ErrorBody>("/quotes", payout(accountId, externalId, 1_000_000_001, rail));
    expect(above.status).toBe(400);
    expect(above.body.code).toBe("AMOUNT_OUT_OF_RANGE");
    expect(above.body.reason).toContain("per-payment cap of 1000000000");
  });

  test("ACH is not capped per entry: the general single-transaction maximum applies", async () => {
    const { accountId, externalId } = await payer(server.client, { funds: 0 });
    const res = await server.client.post<ErrorBody>(
      "/quotes",
      payout(accountId, externalId, 100_000_001, { platformFeeOverride: 0 }),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("TRANSACTION_SIZE_LIMIT_EXCEEDED");
    await ledgerInvariantHolds(server);
  });
});
