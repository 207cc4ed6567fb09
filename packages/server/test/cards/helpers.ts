import { expect } from "vitest";
import type { Card } from "../../src/cards/schemas.js";
import { newId } from "../../src/core/ids.js";
import { insertInternalAccount } from "../../src/customers/accounts-store.js";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import type { Credentials, TestClient, TestServer } from "../harness.js";

/** Polls until `check` passes (or `timeoutMs` pass). */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** A fresh sandbox platform whose customers are KYC-approved at create (skip-paperwork, any name). */
export async function cardPlatform(
  server: TestServer,
): Promise<{ platform: Credentials; client: TestClient }> {
  const platform = await server.newPlatform();
  const client = server.client.as(platform);
  expect((await client.patch("/config", { sandboxSkipVerificationPaperwork: true })).status).toBe(200);
  return { platform, client };
}

export interface Cardholder {
  customerId: string;
  /** The cardholder's USD INTERNAL_FIAT account. */
  accountId: string;
}

/**
 * A customer and its USD account. On a cardPlatform the customer is APPROVED unless `fullName` ends in
 * a KYC suffix (conventions §2.1: 001 and 003 stay UNVERIFIED, 002 REJECTED).
 */
export async function newCardholder(client: TestClient, fullName = "Card Holder 457"): Promise<Cardholder> {
  const customer = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    fullName,
    ...withEndUserTerms,
  });
  expect(customer.status).toBe(201);
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&currency=USD&type=INTERNAL_FIAT`,
  );
  const accountId = accounts.body.data[0]?.id;
  if (!accountId) throw new Error(`customer ${customer.body.id} has no USD account`);
  return { customerId: customer.body.id, accountId };
}

/** Funds an account through the sandbox (one balance change). */
export async function fund(client: TestClient, accountId: string, amount: number): Promise<void> {
  expect((await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200);
}

/** Issues a card (201, PROCESSING); extra body fields override the defaults. */
export async function issueCard(
  client: TestClient,
  holder: Cardholder,
  extra: Record<string, unknown> = {},
): Promise<Card> {
  const res = await client.post<Card>("/cards", {
    cardholderId: holder.customerId,
    form: "VIRTUAL",
    fundingSources: [holder.accountId],
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Issues a card and runs the sandbox issuer's answer, returning the ACTIVE card. */
export async function activeCard(
  server: TestServer,
  client: TestClient,
  holder: Cardholder,
  extra: Record<string, unknown> = {},
): Promise<Card> {
  const card = await issueCard(client, holder, extra);
  await server.jobs.runDue();
  const res = await client.get<Card>(`/cards/${card.id}`);
  expect(res.body.status).toBe("ACTIVE");
  return res.body;
}

/** The events of a platform of one type prefix, oldest first, read from the outbox. */
export async function eventsOf(
  server: TestServer,
  platformId: string,
  typePrefix: string,
): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const rows = await server.db.query<{ body: string }>(
    "SELECT body FROM webhook_events WHERE platform_id = $1 AND type LIKE $2 ORDER BY created_at, id",
    [platformId, `${typePrefix}%`],
  );
  return rows.map((row) => JSON.parse(row.body) as { type: string; data: Record<string, unknown> });
}

/** CARD.* events about one card, oldest first: type and payload (the envelope id and timestamp dropped). */
export async function cardEvents(
  server: TestServer,
  platformId: string,
  cardId: string,
): Promise<{ type: string; data: Card }[]> {
  const events = await eventsOf(server, platformId, "CARD.");
  return events
    .filter((e) => e.data.id === cardId)
    .map((e) => ({ type: e.type, data: e.data as unknown as Card }));
}

/**
 * A second ACTIVE USD INTERNAL_FIAT account of the cardholder, written through the accounts store: the
 * API opens one fiat account per currency per customer, so a card with two eligible sources in one
 * currency (priority order, conventions §6.1) can only be set up in data.
 */
export async function secondUsdAccount(server: TestServer, platformId: string, holder: Cardholder) {
  const id = newId("InternalAccount");
  const now = new Date();
  await server.db.transaction((tx) =>
    insertInternalAccount(tx, {
      id,
      platform_id: platformId,
      customer_id: holder.customerId,
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
