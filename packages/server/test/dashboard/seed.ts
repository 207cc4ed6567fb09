import { expect } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import type { TestClient, TestServer } from "../harness.js";
import { eventually, platformWithReceiver } from "../webhooks/helpers.js";
import type { Receiver } from "../webhooks/receiver.js";

/** The service clock stands still here, so every timestamp the dashboard shows is the same on every run. */
export const SERVICE_TIME = "2031-03-02T15:00:00.000Z";
/** Deposits of the seeded month (USD cents) at fixed platform times; their sum is March's closing balance. */
export const DEPOSITS: [string, number][] = [
  ["2031-03-03T15:00:00.000Z", 150_000],
  ["2031-03-10T15:00:00.000Z", 25_000],
  ["2031-03-20T15:00:00.000Z", 40_000],
];
/** After March's card settlement closed (3 days after the month's end), so its statement can be built. */
export const SEEDED_NOW = "2031-04-06T15:00:00.000Z";
export const CUSTOMER_NAME = "Ada Lovelace";

export interface Seeded {
  client: TestClient;
  receiver: Receiver;
  accountId: string;
}

async function advance(client: TestClient, to: string): Promise<void> {
  const moved = await client.post("/sandbox/clock/advance", { to });
  expect(moved.status, moved.text).toBe(200);
}

/**
 * A sandbox platform with a webhook receiver, one customer and her USD account funded three times in
 * March 2031, its clock at SEEDED_NOW and every webhook delivered.
 */
export async function seedPlatform(server: TestServer): Promise<Seeded> {
  const { client, receiver } = await platformWithReceiver(server);
  const [first] = DEPOSITS[0] ?? [];
  if (first) await advance(client, first);
  const customer = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    platformCustomerId: "ada-001",
    fullName: CUSTOMER_NAME,
    ...withEndUserTerms,
  });
  expect(customer.status, customer.text).toBe(201);
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&currency=USD&type=INTERNAL_FIAT`,
  );
  const accountId = accounts.body.data[0]?.id;
  if (!accountId) throw new Error("the seeded customer has no USD account");
  for (const [at, amount] of DEPOSITS) {
    await advance(client, at);
    const funded = await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount });
    expect(funded.status, funded.text).toBe(200);
  }
  await advance(client, SEEDED_NOW);
  await server.jobs.runDue();
  await eventually(async () => {
    const pending = await client.get<{ data: unknown[] }>("/webhooks/deliveries?state=PENDING");
    expect(pending.body.data).toEqual([]);
  }, 20_000);
  return { client, receiver, accountId };
}
