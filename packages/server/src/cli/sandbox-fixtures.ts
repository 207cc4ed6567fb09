import { type PaysvcClient, PaysvcError } from "@paysvc/sdk";
import type { ApiCredentials } from "./api.js";

// The sandbox objects `paysvc trigger` and `paysvc seed` make, through the API as a platform would: the
// SDK where it has the call, else `sandboxPost` for the sandbox simulations it does not wrap.

export type Say = (line: string) => void;

/** The platform a command works on: the SDK client and what a raw sandbox call needs. */
export interface Sandbox {
  client: PaysvcClient;
  url: string;
  credentials: ApiCredentials;
}

/** The Authorization header of the API token. */
export const basicAuth = ({ clientId, clientSecret }: ApiCredentials) =>
  `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;

/** A refusal's body as the SDK's own calls throw it: a PaysvcError with the code, reason and request id. */
export async function refusalOf(response: Response): Promise<PaysvcError> {
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  const requestId = response.headers.get("x-request-id") ?? undefined;
  return new PaysvcError({
    status: response.status,
    code: String(answer.code ?? `HTTP_${response.status}`),
    reason: String(answer.reason ?? response.statusText),
    ...(requestId ? { requestId } : {}),
  });
}

/**
 * `POST <path>` with the API token, for the sandbox simulations the SDK does not wrap (ach-deposit,
 * ach-return, refund, webhooks/test). A refusal is a PaysvcError, as the SDK's own calls throw.
 */
export async function sandboxPost<T>(sandbox: Sandbox, path: string, body: object = {}): Promise<T> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: "POST",
    headers: { authorization: basicAuth(sandbox.credentials), "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (response.ok) return (await response.json()) as T;
  throw await refusalOf(response);
}

/** A new individual with the current end-user terms accepted at the platform's time (needed to send money). */
export async function newCustomer(
  client: PaysvcClient,
  fullName: string,
  extra: { email?: string; platformCustomerId?: string } = {},
): Promise<{ customerId: string; accountId: string }> {
  const [terms, clock] = await Promise.all([client.customers.getEndUserTerms(), client.sandbox.getClock()]);
  const customer = await client.customers.create({
    customerType: "INDIVIDUAL",
    fullName,
    ...extra,
    agreementConsents: [
      {
        type: "SERVICE_END_USER_TERMS",
        termsVersion: terms.version,
        acceptedAt: clock.now,
        ipAddress: "127.0.0.1",
      },
    ],
  });
  const accounts = await client.internalAccounts.listForCustomers({
    customerId: customer.id,
    currency: "USD",
  });
  const account = accounts.data[0];
  if (!account) throw new Error(`customer ${customer.id} has no USD account`);
  return { customerId: customer.id, accountId: account.id };
}

/**
 * Runs `work` with the platform's sandbox skip-paperwork on (a new individual is KYC APPROVED at create,
 * as a cardholder must be), and puts the previous setting back afterwards unless `keep`.
 */
export async function withSkipPaperwork<T>(
  client: PaysvcClient,
  work: () => Promise<T>,
  keep = false,
): Promise<T> {
  const previous = (await client.config.get()).sandboxSkipVerificationPaperwork;
  if (previous !== true) await client.config.update({ sandboxSkipVerificationPaperwork: true });
  try {
    return await work();
  } finally {
    if (previous !== true && !keep)
      await client.config.update({ sandboxSkipVerificationPaperwork: previous ?? false });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` every 250 ms until `done`, for at most `seconds`; the last reading otherwise fails. */
export async function waitUntil<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  seconds = 60,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${seconds} s`);
    await sleep(250);
  }
}

/**
 * A virtual card on `accountId` for its KYC-APPROVED owner, waited for until ACTIVE (it is issued
 * PROCESSING; CARD.STATUS_CHANGE fires when it activates).
 */
export async function activeCard(
  client: PaysvcClient,
  customerId: string,
  accountId: string,
): Promise<string> {
  const card = await client.cards.create({
    cardholderId: customerId,
    form: "VIRTUAL",
    fundingSources: [accountId],
  });
  await waitUntil(
    `card ${card.id} to become ACTIVE`,
    () => client.cards.get(card.id),
    (c) => c.status === "ACTIVE",
  );
  return card.id;
}

/** A card holder with a funded USD account and an ACTIVE card: what the card simulations need. */
export async function cardholderWithCard(
  client: PaysvcClient,
  say: Say,
): Promise<{ customerId: string; accountId: string; cardId: string }> {
  const { customerId, accountId } = await withSkipPaperwork(client, () =>
    newCustomer(client, "Trigger Cardholder"),
  );
  await client.sandbox.fund(accountId, 50_000);
  say(`created cardholder ${customerId} with USD account ${accountId}, funded with 50000 cents`);
  const cardId = await activeCard(client, customerId, accountId);
  say(`issued virtual card ${cardId} (ACTIVE)`);
  return { customerId, accountId, cardId };
}

export const MERCHANT = { descriptor: "BLUE BOTTLE", mcc: "5814", city: "Oakland", state: "CA" } as const;

/** An authorization of `amount` cents at `descriptor` on `cardId`: the new card transaction's id. */
export async function authorize(
  client: PaysvcClient,
  cardId: string,
  amount: number,
  descriptor: string = MERCHANT.descriptor,
): Promise<string> {
  const result = await client.sandbox.simulateCard(cardId, "authorization", {
    amount,
    currency: { code: "USD" },
    merchant: { ...MERCHANT, descriptor },
  });
  return result.cardTransactionId;
}
