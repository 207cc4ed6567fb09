import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ControlledClock } from "../../src/core/clock.js";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { type Credentials, startServer, type TestClient, type TestServer } from "../harness.js";
import { payer, payout, platformClient } from "../payouts/helpers.js";

type BankValidation = {
  method: string;
  status: string;
  microEntriesSentAt: string;
  returnWindowEndsAt: string;
  completedAt?: string;
  returnCode?: string;
};
type ExternalAccount = {
  id: string;
  status: string;
  bankValidation?: BankValidation;
  createdAt: string;
  updatedAt: string;
};
type ErrorBody = { code: string; reason: string };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

// Monday 2027-03-01 09:00 Chicago: micro-entries settle Tuesday 17:00, the window closes Thursday 17:00.
const MONDAY = "2027-03-01T15:00:00.000Z";
const THURSDAY_CLOSE = "2027-03-04T23:00:00.000Z";

const bankAccount = (customerId: string, accountNumber: string) => ({
  customerId,
  currency: "USD",
  accountInfo: {
    accountType: "USD_ACCOUNT",
    accountNumber,
    routingNumber: "021000021",
    bankAccountType: "CHECKING",
    beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" },
  },
});

async function newBankAccount(client: TestClient, accountNumber: string, auth?: Credentials) {
  const customer = await client.post<{ id: string }>(
    "/customers",
    { customerType: "INDIVIDUAL", ...withEndUserTerms },
    auth ? { auth } : {},
  );
  const res = await client.post<ExternalAccount>(
    "/customers/external-accounts",
    bankAccount(customer.body.id, accountNumber),
    auth ? { auth } : {},
  );
  expect(res.status).toBe(201);
  return res.body;
}

async function statusEvents(id: string): Promise<ExternalAccount[]> {
  const rows = await server.db.query<{ body: string }>(
    "SELECT body FROM webhook_events WHERE type = 'EXTERNAL_ACCOUNT.STATUS_UPDATED' AND body LIKE $1 ORDER BY created_at",
    [`%${id}%`],
  );
  return rows.map((row) => JSON.parse(row.body).data);
}

async function advance(client: TestClient, to: string) {
  expect((await client.post("/sandbox/clock/advance", { to })).status).toBe(200);
  await server.jobs.runDue();
}

describe("sandbox: accountNumber suffix 008 is validated by micro-entries over the return window", () => {
  test("008 -> 201 PENDING with bankValidation: micro-entries sent now, window ends 2 banking days after they settle", async () => {
    const client = await platformClient(server, MONDAY);
    const account = await newBankAccount(client, "5550008");
    expect(account.status).toBe("PENDING");
    expect(account.bankValidation).toEqual({
      method: "MICRO_ENTRIES",
      status: "PENDING",
      microEntriesSentAt: account.createdAt,
      returnWindowEndsAt: THURSDAY_CLOSE,
    });
    expect(await statusEvents(account.id)).toEqual([]);
  });

  test("the return window counts banking days: weekends and Federal Reserve holidays are skipped", async () => {
    // Wednesday before Thanksgiving 2027: settles Friday 11-26, window Monday 11-29 and Tuesday 11-30.
    const client = await platformClient(server, "2027-11-24T16:00:00.000Z");
    const account = await newBankAccount(client, "5551008");
    expect(account.bankValidation?.returnWindowEndsAt).toBe("2027-11-30T23:00:00.000Z");
  });

  test("payouts while the window is open -> 409 BANK_ACCOUNT_VALIDATION_PENDING", async () => {
    const client = await platformClient(server, MONDAY);
    const { accountId, externalId } = await payer(client, { suffix: "008" });
    // The platform clock keeps running after an advance: stop well short of the 23:00Z close.
    await advance(client, "2027-03-04T20:00:00.000Z");
    const res = await client.post<ErrorBody>("/quotes", payout(accountId, externalId, 1_000));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("BANK_ACCOUNT_VALIDATION_PENDING");
    const read = await client.get<ExternalAccount>(`/customers/external-accounts/${externalId}`);
    expect(read.body.status).toBe("PENDING");
  });

  test("advancing the sandbox clock past returnWindowEndsAt -> ACTIVE, bankValidation SUCCEEDED, one STATUS_UPDATED with the full account", async () => {
    const client = await platformClient(server, MONDAY);
    const account = await newBankAccount(client, "5552008");
    await advance(client, "2027-03-05T12:00:00.000Z");
    const read = await client.get<ExternalAccount>(`/customers/external-accounts/${account.id}`);
    expect(read.body).toMatchObject({
      status: "ACTIVE",
      bankValidation: { status: "SUCCEEDED", completedAt: read.body.updatedAt },
    });
    // The job runs once due, on the platform's clock: at or after the window's end, never before it.
    expect(Date.parse(read.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(THURSDAY_CLOSE));
    expect(await statusEvents(account.id)).toEqual([read.body]);
  });

  test("once ACTIVE, payouts to it are accepted", async () => {
    const client = await platformClient(server, MONDAY);
    const { accountId, externalId } = await payer(client, { suffix: "008" });
    await advance(client, "2027-03-05T12:00:00.000Z");
    const res = await client.post<{ status: string }>("/quotes", payout(accountId, externalId, 1_000));
    expect(res.status).toBe(201);
  });

  test("a deleted account's window closes without any change or event", async () => {
    const client = await platformClient(server, MONDAY);
    const account = await newBankAccount(client, "5553008");
    expect((await client.delete(`/customers/external-accounts/${account.id}`)).status).toBe(204);
    await advance(client, "2027-03-05T12:00:00.000Z");
    const [row] = await server.db.query<{ status: string }>(
      "SELECT status FROM external_accounts WHERE id = $1",
      [account.id],
    );
    expect(row?.status).toBe("PENDING");
    expect(await statusEvents(account.id)).toEqual([]);
  });
});

describe("sandbox: accountNumber suffix 009 fails validation (micro-entries returned)", () => {
  test("009 -> 201 INACTIVE with bankValidation FAILED, returnCode R03, and one STATUS_UPDATED", async () => {
    const client = await platformClient(server, MONDAY);
    const account = await newBankAccount(client, "5554009");
    expect(account).toMatchObject({
      status: "INACTIVE",
      bankValidation: {
        method: "MICRO_ENTRIES",
        status: "FAILED",
        returnCode: "R03",
        microEntriesSentAt: account.createdAt,
        completedAt: account.createdAt,
        returnWindowEndsAt: THURSDAY_CLOSE,
      },
    });
    expect(await statusEvents(account.id)).toEqual([account]);
  });

  test("payouts to a failed account -> 400 INVALID_BANK_ACCOUNT, also after the window has passed", async () => {
    const client = await platformClient(server, MONDAY);
    const { accountId, externalId } = await payer(client, { suffix: "009" });
    await advance(client, "2027-03-08T12:00:00.000Z");
    const res = await client.post<ErrorBody>("/quotes", payout(accountId, externalId, 1_000));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_BANK_ACCOUNT");
    expect(await statusEvents(externalId)).toHaveLength(1);
  });
});

describe("sandbox: other suffixes validate at once", () => {
  test("any other suffix -> 201 ACTIVE without bankValidation, one STATUS_UPDATED", async () => {
    const client = await platformClient(server, MONDAY);
    const account = await newBankAccount(client, "5555123");
    expect(account.status).toBe("ACTIVE");
    expect(account).not.toHaveProperty("bankValidation");
    expect(await statusEvents(account.id)).toEqual([account]);
  });
});

describe("production platforms: every new USD account goes through the micro-entry window", () => {
  let prod: TestServer;
  let clock: ControlledClock;
  let auth: Credentials;
  beforeAll(async () => {
    clock = new ControlledClock(new Date(MONDAY));
    prod = await startServer({ clock });
    auth = await prod.newPlatform("PRODUCTION");
  });
  afterAll(() => prod.close());

  test("a production account is PENDING until the window closes, then ACTIVE; sandbox suffixes are not read", async () => {
    const accounts = [
      await newBankAccount(prod.client, "7000123", auth),
      await newBankAccount(prod.client, "7000009", auth),
    ];
    for (const account of accounts) {
      expect(account).toMatchObject({
        status: "PENDING",
        bankValidation: { status: "PENDING", returnWindowEndsAt: THURSDAY_CLOSE },
      });
    }
    clock.set(new Date("2027-03-04T22:59:00.000Z"));
    await prod.jobs.runDue();
    for (const account of accounts) {
      const read = await prod.client.get<ExternalAccount>(`/customers/external-accounts/${account.id}`, {
        auth,
      });
      expect(read.body.status).toBe("PENDING");
    }
    clock.set(new Date("2027-03-04T23:00:00.000Z"));
    await prod.jobs.runDue();
    for (const account of accounts) {
      const read = await prod.client.get<ExternalAccount>(`/customers/external-accounts/${account.id}`, {
        auth,
      });
      expect(read.body).toMatchObject({
        status: "ACTIVE",
        updatedAt: THURSDAY_CLOSE,
        bankValidation: { status: "SUCCEEDED", completedAt: THURSDAY_CLOSE },
      });
    }
  });
});
