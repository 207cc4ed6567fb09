import { expect } from "vitest";
import type { CardTransaction } from "../../src/cards/schemas.js";
import { newId } from "../../src/core/ids.js";
import { insertInternalAccount } from "../../src/customers/accounts-store.js";
import type { Credentials, TestClient, TestResponse, TestServer } from "../harness.js";
import { activeCard, type Cardholder, cardPlatform, eventsOf, fund, newCardholder } from "./helpers.js";

export const USD = { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2 };
export const usd = (amount: number) => ({ amount, currency: USD });

export interface ErrorBody {
  code: string;
  reason: string;
  details?: { errors: { field: string; message: string; constraint?: Record<string, unknown> }[] };
}

export interface SimulationBody {
  issuerTransactionToken: string;
  cardTransactionId: string;
}

export type SimulationOp =
  | "authorization"
  | "clearing"
  | "return"
  | "return_reversal"
  | "authorization_advice"
  | "balance_inquiry"
  | "credit_authorization"
  | "credit_authorization_advice"
  | "financial_authorization"
  | "financial_credit_authorization";

/** A merchant whose descriptor ends in no sandbox suffix (conventions §6.5). */
export const SHOP = { descriptor: "COFFEE SHOP 457", mcc: "5814", country: "US" };

/** `POST /sandbox/cards/{id}/simulate/<op>` as sent, whatever the answer. */
export function simulate(
  client: TestClient,
  cardId: string,
  op: SimulationOp,
  body: unknown,
): Promise<TestResponse<SimulationBody & ErrorBody>> {
  return client.post<SimulationBody & ErrorBody>(`/sandbox/cards/${cardId}/simulate/${op}`, body);
}

/** A simulation that must be accepted (`202`); returns the row it created or affected. */
export async function simulateOk(
  client: TestClient,
  cardId: string,
  op: SimulationOp,
  body: unknown,
): Promise<string> {
  const res = await simulate(client, cardId, op, body);
  expect(res.status, res.text).toBe(202);
  expect(res.body.issuerTransactionToken).toEqual(expect.any(String));
  return res.body.cardTransactionId;
}

/** An opening message body (authorization and its variants) in USD. */
export const opening = (amount: number, merchant: Record<string, unknown> = SHOP) => ({
  amount,
  currency: { code: "USD" },
  merchant,
});

/** A purchase authorization; returns the new row's id (AUTHORIZED or DECLINED). */
export const authorize = (client: TestClient, cardId: string, amount: number, merchant = SHOP) =>
  simulateOk(client, cardId, "authorization", opening(amount, merchant));

export const clear = (client: TestClient, cardId: string, cardTransactionId: string, amount: number) =>
  simulateOk(client, cardId, "clearing", { cardTransactionId, amount });

/** `GET /transactions/{id}` for a card transaction, which must exist. */
export async function cardTransaction(client: TestClient, id: string): Promise<CardTransaction> {
  const res = await client.get<CardTransaction>(`/transactions/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export interface Balances {
  /** Available: totalBalance minus open holds. */
  balance: number;
  totalBalance: number;
}

/** `GET /internal-accounts/{id}`: the account's available and ledger balances. */
export async function balances(client: TestClient, accountId: string): Promise<Balances> {
  const res = await client.get<{ balance: { amount: number }; totalBalance: { amount: number } }>(
    `/internal-accounts/${accountId}`,
  );
  expect(res.status, res.text).toBe(200);
  return { balance: res.body.balance.amount, totalBalance: res.body.totalBalance.amount };
}

export interface ChangeRow {
  [column: string]: unknown;
  id: string;
  amount: number;
  fee: number;
  transaction_id: string;
  effective_at: Date;
}

/** The account's balance changes in statement order, read from the ledger table. */
export function changesOf(server: TestServer, accountId: string): Promise<ChangeRow[]> {
  return server.db.query<ChangeRow>(
    "SELECT id, amount, fee, transaction_id, effective_at FROM balance_changes WHERE account_id = $1 ORDER BY effective_at, id",
    [accountId],
  );
}

/** The balance changes that name card transactions. */
export async function cardChangesOf(server: TestServer, accountId: string): Promise<ChangeRow[]> {
  return (await changesOf(server, accountId)).filter((c) => c.transaction_id.startsWith("CardTransaction:"));
}

/** `CARD_TRANSACTION.*` events of one row, oldest first, as `TYPE status`. */
export async function eventTrail(server: TestServer, platformId: string, rowId: string): Promise<string[]> {
  return (await eventsOf(server, platformId, "CARD_TRANSACTION."))
    .filter((e) => e.data.id === rowId)
    .map((e) => `${e.type} ${String(e.data.status)}`);
}

/** How many CARD_TRANSACTION.* events the platform has raised so far. */
export async function cardEventCount(server: TestServer, platformId: string): Promise<number> {
  const [row] = await server.db.query<{ n: number }>(
    "SELECT count(*)::int8 AS n FROM webhook_events WHERE platform_id = $1 AND type LIKE 'CARD_TRANSACTION.%'",
    [platformId],
  );
  return row?.n ?? 0;
}

/** Sets a card's status through `PATCH /cards/{id}` (conventions §6.2). */
export async function setCardStatus(
  client: TestClient,
  cardId: string,
  status: "ACTIVE" | "FROZEN" | "CLOSED",
): Promise<void> {
  const res = await client.patch(`/cards/${cardId}`, { status });
  expect(res.status, res.text).toBe(200);
}

/**
 * Sets an internal account's status in the database: no endpoint freezes an account, and the
 * NO_ELIGIBLE_FUNDING_SOURCE decline (conventions §6.5 check 2) needs a card whose only source is not ACTIVE.
 */
export async function setAccountStatus(server: TestServer, accountId: string, status: string): Promise<void> {
  await server.db.query("UPDATE internal_accounts SET status = $2 WHERE id = $1", [accountId, status]);
}

/**
 * A second USD INTERNAL_FIAT account of the cardholder, written to the database: customers get one
 * account per currency at create, and the funding-priority rule (conventions §6.3 `accountId`) needs two.
 */
export async function secondUsdAccount(server: TestServer, platformId: string, customerId: string) {
  const id = newId("InternalAccount");
  const now = new Date();
  await server.db.transaction((tx) =>
    insertInternalAccount(tx, {
      id,
      platform_id: platformId,
      customer_id: customerId,
      type: "INTERNAL_FIAT",
      role: "STANDARD",
      status: "ACTIVE",
      currency: "USD",
      private_enabled: null,
      created_at: now,
      updated_at: now,
    }),
  );
  return id;
}

export interface CardFixture {
  platform: Credentials;
  client: TestClient;
  holder: Cardholder;
  cardId: string;
}

/** A fresh card platform with one cardholder funded with `funds` and one ACTIVE card on its account. */
export async function cardFixture(
  server: TestServer,
  funds: number,
  cardExtra: Record<string, unknown> = {},
): Promise<CardFixture> {
  const { platform, client } = await cardPlatform(server);
  return { platform, client, ...(await fundedCard(server, client, funds, cardExtra)) };
}

/** A new cardholder on the client's platform funded with `funds`, and an ACTIVE card on its account. */
export async function fundedCard(
  server: TestServer,
  client: TestClient,
  funds: number,
  cardExtra: Record<string, unknown> = {},
): Promise<{ holder: Cardholder; cardId: string }> {
  const holder = await newCardholder(client);
  if (funds > 0) await fund(client, holder.accountId, funds);
  const card = await activeCard(server, client, holder, cardExtra);
  return { holder, cardId: card.id };
}

/** Moves the platform's sandbox clock `ms` forward from its current time and runs the jobs then due. */
export async function advance(server: TestServer, client: TestClient, ms: number): Promise<void> {
  const now = await client.get<{ now: string }>("/sandbox/clock");
  const to = new Date(Date.parse(now.body.now) + ms).toISOString();
  const res = await client.post("/sandbox/clock/advance", { to });
  expect(res.status, res.text).toBe(200);
  await server.jobs.runDue();
}
