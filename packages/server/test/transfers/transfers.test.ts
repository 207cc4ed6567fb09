import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../harness.js";
import { advance, changesOf, payer, platformClient, type Transaction } from "../payouts/helpers.js";
import { balanceOf, type ErrorBody, ledgerInvariantHolds, tokenWith } from "../quotes/helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const AT = "2027-03-10T16:00:00.000Z"; // Wednesday 10:00 Chicago
const out = (accountId: string, externalId: string, amount: number, extra: Record<string, unknown> = {}) => ({
  source: { accountId },
  destination: { accountId: externalId },
  amount,
  ...extra,
});
const into = (externalId: string, accountId: string, amount: number) => ({
  source: { accountId: externalId },
  destination: { accountId },
  amount,
});

describe("POST /transfer-out (deprecated; conventions §3.3, §3.6)", () => {
  test("201 OUTGOING Transaction PROCESSING over ACH (AUTO), then COMPLETED at settlement", async () => {
    const client = await platformClient(server, AT);
    const { accountId, externalId } = await payer(client, { funds: 20_000 });
    const res = await client.post<Transaction>(
      "/transfer-out",
      out(accountId, externalId, 5_000, { remittanceInformation: "Rent" }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: "OUTGOING",
      status: "PROCESSING",
      paymentRail: "ACH",
      railSelectionMode: "AUTO",
      sentAmount: { amount: 5_000 },
      remittanceInformation: "Rent",
      expectedSettlementAt: "2027-03-11T23:00:00.000Z",
    });
    await advance(client, "2027-03-11T23:00:00.000Z");
    await server.jobs.runDue();
    expect((await client.get<Transaction>(`/transactions/${res.body.id}`)).body.status).toBe("COMPLETED");
    expect(await balanceOf(server, accountId, client.credentials)).toBe(15_000);
    await ledgerInvariantHolds(server);
  });

  test("pinned ACH_SAME_DAY -> railSelectionMode MANUAL", async () => {
    const client = await platformClient(server, AT);
    const { accountId, externalId } = await payer(client);
    const res = await client.post<Transaction>("/transfer-out", {
      ...out(accountId, externalId, 5_000),
      destination: { accountId: externalId, paymentRail: "ACH_SAME_DAY" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      paymentRail: "ACH_SAME_DAY",
      railSelectionMode: "MANUAL",
      expectedSettlementAt: "2027-03-10T23:00:00.000Z",
    });
  });

  test("a missing amount -> 400 INVALID_INPUT", async () => {
    const { accountId, externalId } = await payer(server.client);
    const res = await server.client.post<ErrorBody>("/transfer-out", {
      source: { accountId },
      destination: { accountId: externalId },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_INPUT");
  });

  test("without TRANSACT permission -> 403", async () => {
    const { accountId, externalId } = await payer(server.client);
    const viewer = await tokenWith(server, ["VIEW"]);
    const res = await server.client.post<ErrorBody>("/transfer-out", out(accountId, externalId, 100), {
      auth: viewer,
    });
    expect(res.status).toBe(403);
  });

  test("002 -> 400 INSUFFICIENT_FUNDS, nothing created", async () => {
    const { accountId, externalId } = await payer(server.client, { suffix: "002" });
    const res = await server.client.post<ErrorBody>("/transfer-out", out(accountId, externalId, 1_000));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INSUFFICIENT_FUNDS");
    expect(
      await server.db.query("SELECT id FROM transactions WHERE account_id = $1 AND type = 'OUTGOING'", [
        accountId,
      ]),
    ).toEqual([]);
    expect(await server.db.query("SELECT id FROM quotes WHERE source_account_id = $1", [accountId])).toEqual(
      [],
    );
  });

  test.each([
    ["003", "ACCOUNT_INVALID"],
    ["004", "COMPLIANCE_REJECTED"],
  ])("%s -> 201 FAILED %s, the debit refunded in the same transaction", async (suffix, reason) => {
    const { accountId, externalId } = await payer(server.client, { suffix, funds: 10_000 });
    const res = await server.client.post<Transaction>("/transfer-out", out(accountId, externalId, 1_000));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "FAILED",
      failureReason: reason,
      refund: { status: "COMPLETED" },
    });
    expect(await changesOf(server, res.body.id)).toEqual([
      { amount: -1_000, fee: 0 },
      { amount: 1_000, fee: 0 },
    ]);
    expect(await balanceOf(server, accountId)).toBe(10_000);
    await ledgerInvariantHolds(server);
  });

  test("005 -> settles, then about 30 s later FAILED PAYOUT_RETURNED with a reversing second change", async () => {
    const client = await platformClient(server, AT);
    const { accountId, externalId } = await payer(client, { suffix: "005", funds: 10_000 });
    const res = await client.post<Transaction>("/transfer-out", out(accountId, externalId, 1_000));
    await server.jobs.runDue();
    expect((await client.get<Transaction>(`/transactions/${res.body.id}`)).body.status).toBe("COMPLETED");
    await advance(client, new Date(Date.parse(AT) + 31_000));
    await server.jobs.runDue();
    const txn = (await client.get<Transaction>(`/transactions/${res.body.id}`)).body;
    expect(txn).toMatchObject({ status: "FAILED", failureReason: "PAYOUT_RETURNED" });
    expect(await changesOf(server, res.body.id)).toEqual([
      { amount: -1_000, fee: 0 },
      { amount: 1_000, fee: 0 },
    ]);
    await ledgerInvariantHolds(server);
  });

  test.each(["006", "007"])("%s -> normal", async (suffix) => {
    const { accountId, externalId } = await payer(server.client, { suffix });
    const res = await server.client.post<Transaction>("/transfer-out", out(accountId, externalId, 1_000));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("PROCESSING");
  });
});

describe("POST /transfer-in (deprecated; conventions §3.3, §3.6)", () => {
  test("201 INCOMING Transaction COMPLETED, one balance change +amount", async () => {
    const { accountId, externalId } = await payer(server.client, { funds: 0 });
    const res = await server.client.post<Transaction>("/transfer-in", into(externalId, accountId, 2_500));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: "INCOMING",
      status: "COMPLETED",
      direction: "CREDIT",
      receivedAmount: { amount: 2_500 },
    });
    expect(await changesOf(server, res.body.id)).toEqual([{ amount: 2_500, fee: 0 }]);
    expect(await balanceOf(server, accountId)).toBe(2_500);
    await ledgerInvariantHolds(server);
  });

  test("an unknown external account -> 404 ACCOUNT_NOT_FOUND", async () => {
    const { accountId } = await payer(server.client, { funds: 0 });
    const res = await server.client.post<ErrorBody>(
      "/transfer-in",
      into("ExternalAccount:01a2031b-3af6-74b7-af52-45f72eabe452", accountId, 1),
    );
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("ACCOUNT_NOT_FOUND");
  });

  test("002 -> 400 INSUFFICIENT_FUNDS, nothing created", async () => {
    const { accountId, externalId } = await payer(server.client, { suffix: "002", funds: 0 });
    const res = await server.client.post<ErrorBody>("/transfer-in", into(externalId, accountId, 1_000));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INSUFFICIENT_FUNDS");
    expect(await server.db.query("SELECT id FROM transactions WHERE account_id = $1", [accountId])).toEqual(
      [],
    );
  });

  test.each([
    ["003", "ACCOUNT_INVALID"],
    ["004", "COMPLIANCE_REJECTED"],
  ])("%s -> 201 FAILED %s, no money moved", async (suffix, reason) => {
    const { accountId, externalId } = await payer(server.client, { suffix, funds: 0 });
    const res = await server.client.post<Transaction>("/transfer-in", into(externalId, accountId, 1_000));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "FAILED", failureReason: reason });
    expect(await changesOf(server, res.body.id)).toEqual([]);
  });

  test("005 -> settles, then about 30 s later FAILED PAYOUT_RETURNED with a reversing second change", async () => {
    const client = await platformClient(server, AT);
    const { accountId, externalId } = await payer(client, { suffix: "005", funds: 0 });
    const res = await client.post<Transaction>("/transfer-in", into(externalId, accountId, 1_000));
    expect(res.body.status).toBe("COMPLETED");
    await advance(client, new Date(Date.parse(AT) + 31_000));
    await server.jobs.runDue();
    const txn = (await client.get<Transaction>(`/transactions/${res.body.id}`)).body;
    expect(txn).toMatchObject({ status: "FAILED", failureReason: "PAYOUT_RETURNED" });
    expect(await changesOf(server, res.body.id)).toEqual([
      { amount: 1_000, fee: 0 },
      { amount: -1_000, fee: 0 },
    ]);
    expect(await balanceOf(server, accountId, client.credentials)).toBe(0);
    await ledgerInvariantHolds(server);
  });
});
