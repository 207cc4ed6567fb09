import { randomBytes } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import { startReceiver } from "../../server/test/webhooks/receiver.js";
import {
  BadRequestError,
  ConflictError,
  type ExternalAccount,
  type LivenessChallenge,
  NotFoundError,
  PaysvcClient,
  PaysvcError,
  RateLimitError,
  type WalletSignatureChallenge,
  type WebhookEvent,
} from "../src/node.js";

let server: TestServer;
let paysvc: PaysvcClient;
let customerId: string;
beforeAll(async () => {
  server = await startServer();
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
  customerId = (await paysvc.customers.create({ customerType: "INDIVIDUAL" })).id;
});
afterAll(() => server.close());

/** A real EVM key: its lowercase address and EIP-191 `personal_sign`, r ‖ s ‖ v with v = 27 + recovery. */
function evmWallet() {
  const secretKey = secp256k1.utils.randomSecretKey();
  const publicKey = secp256k1.getPublicKey(secretKey, false);
  const address = `0x${bytesToHex(keccak_256(publicKey.slice(1)).slice(-20))}`;
  const sign = (message: string) => {
    const bytes = new TextEncoder().encode(message);
    const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${bytes.length}`);
    const digest = keccak_256(new Uint8Array([...prefix, ...bytes]));
    const signature = secp256k1.sign(digest, secretKey, { prehash: false, format: "recovered" });
    return `0x${bytesToHex(signature.slice(1))}${(27 + (signature[0] ?? 0)).toString(16)}`;
  };
  return { address, sign };
}

/** A FIRST_PARTY self-custody Ethereum wallet of the test customer. */
async function selfCustodyWallet(client = paysvc, owner = customerId, address = evmWallet().address) {
  return client.externalAccounts.create({
    customerId: owner,
    currency: "USDC",
    ownershipType: "FIRST_PARTY",
    accountInfo: { accountType: "ETHEREUM_WALLET", address },
  });
}

/** A 1×1 PNG, base64: the sandbox liveness provider's capture. */
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** Moves the platform's clock forward by `ms` and runs the jobs that became due (the provider's answer). */
async function advance(client: PaysvcClient, ms: number): Promise<void> {
  const { now } = await client.sandbox.getClock();
  await client.sandbox.advanceClock(new Date(Date.parse(now) + ms));
  await server.jobs.runDue();
}

/** A push-fed async iterable, as a webhook handler would feed waitForLivenessOutcome. */
function eventFeed() {
  const queued: WebhookEvent[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  const iterable: AsyncIterable<WebhookEvent> = {
    [Symbol.asyncIterator]: () => ({
      async next() {
        while (queued.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
        const value = queued.shift();
        return value ? { value, done: false } : { value: undefined, done: true };
      },
      async return() {
        closed = true;
        wake?.();
        return { value: undefined, done: true };
      },
    }),
  };
  return {
    iterable,
    push(event: WebhookEvent) {
      queued.push(event);
      wake?.();
    },
    get closed() {
      return closed;
    },
  };
}

describe("externalAccounts: create, get, list, delete", () => {
  test("customer accounts: create → 201, get, list by customer, listAll, delete → then NotFoundError ACCOUNT_NOT_FOUND", async () => {
    const owner = (await paysvc.customers.create({ customerType: "INDIVIDUAL" })).id;
    const wallet = await selfCustodyWallet(paysvc, owner);
    expect(wallet.lastResponse.status).toBe(201);
    expect(wallet).toMatchObject({
      status: "PENDING_OWNERSHIP_VERIFICATION",
      customerId: owner,
      currency: "USDC",
    });
    const bank = await paysvc.externalAccounts.create({
      customerId: owner,
      currency: "USD",
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: "123456789",
        routingNumber: "021000021",
        bankAccountType: "CHECKING",
        beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" },
      },
    });
    expect((await paysvc.externalAccounts.get(wallet.id)).id).toBe(wallet.id);
    const page = await paysvc.externalAccounts.list({ customerId: owner, limit: 1 });
    expect(page.data.length).toBe(1);
    expect(page.hasMore).toBe(true);
    const all: ExternalAccount[] = [];
    for await (const account of paysvc.externalAccounts.listAll({ customerId: owner, limit: 1 }))
      all.push(account);
    expect(all.map((a) => a.id).sort()).toEqual([wallet.id, bank.id].sort());

    const deleted = await paysvc.externalAccounts.delete(wallet.id);
    expect(deleted.lastResponse.status).toBe(204);
    const missing = await paysvc.externalAccounts.get(wallet.id).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ code: "ACCOUNT_NOT_FOUND" });
  });

  test("platform twins: platformExternalAccounts creates, reads, lists and deletes platform-owned accounts", async () => {
    const wallet = await paysvc.platformExternalAccounts.create({
      currency: "USDC",
      ownershipType: "FIRST_PARTY",
      accountInfo: { accountType: "ETHEREUM_WALLET", address: evmWallet().address },
    });
    expect(wallet.customerId).toBeUndefined();
    expect((await paysvc.platformExternalAccounts.get(wallet.id)).status).toBe(
      "PENDING_OWNERSHIP_VERIFICATION",
    );
    const ids = (await paysvc.platformExternalAccounts.list({ currency: "USDC", limit: 100 })).data.map(
      (a) => a.id,
    );
    expect(ids).toContain(wallet.id);
    // A platform account is not a customer account, and the other way round.
    await expect(paysvc.externalAccounts.get(wallet.id)).rejects.toBeInstanceOf(NotFoundError);
    await paysvc.platformExternalAccounts.delete(wallet.id);
    await expect(paysvc.platformExternalAccounts.get(wallet.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("an equivalent account is ConflictError DUPLICATE_EXTERNAL_ACCOUNT", async () => {
    const { address } = evmWallet();
    await selfCustodyWallet(paysvc, customerId, address);
    const error = await selfCustodyWallet(paysvc, customerId, address).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: "DUPLICATE_EXTERNAL_ACCOUNT" });
  });
});

describe("externalAccounts.challenge and verify", () => {
  test("challenge's result type follows the method; verify with a real EIP-191 signature → ACTIVE", async () => {
    const key = evmWallet();
    const wallet = await selfCustodyWallet(paysvc, customerId, key.address);
    const liveness = await paysvc.externalAccounts.challenge(wallet.id, "LIVENESS");
    expectTypeOf(liveness).toExtend<LivenessChallenge>();
    expect(liveness.verificationLink).toMatch(/\/ownership\/liveness\/[A-Za-z0-9_-]{43}$/);
    const challenge = await paysvc.externalAccounts.challenge(wallet.id, "WALLET_SIGNATURE");
    expectTypeOf(challenge).toExtend<WalletSignatureChallenge>();
    expect(challenge.lastResponse.status).toBe(201);
    const verified = await paysvc.externalAccounts.verify(wallet.id, {
      signature: key.sign(challenge.messageToSign),
    });
    expect(verified.status).toBe("ACTIVE");
    const again = await paysvc.externalAccounts
      .challenge(wallet.id, "WALLET_SIGNATURE")
      .catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ConflictError);
  });
});

describe("externalAccounts.verifyOwnership(id, signer)", () => {
  test("signs the exact messageToSign with a real key and resolves with the ACTIVE account", async () => {
    const key = evmWallet();
    const wallet = await selfCustodyWallet(paysvc, customerId, key.address);
    const seen: { message: string; challenge: WalletSignatureChallenge }[] = [];
    const account = await paysvc.externalAccounts.verifyOwnership(wallet.id, async (message, challenge) => {
      seen.push({ message, challenge });
      return key.sign(message);
    });
    expect(account.status).toBe("ACTIVE");
    expect(account.lastResponse.status).toBe(200);
    expect(seen.length).toBe(1);
    expect(seen[0]?.message).toBe(seen[0]?.challenge.messageToSign);
    expect(seen[0]?.message).toContain(`Address: ${key.address}`);
  });

  test("works the same for a platform-owned wallet", async () => {
    const key = evmWallet();
    const wallet = await paysvc.platformExternalAccounts.create({
      currency: "USDC",
      ownershipType: "FIRST_PARTY",
      accountInfo: { accountType: "ETHEREUM_WALLET", address: key.address },
    });
    const account = await paysvc.platformExternalAccounts.verifyOwnership(wallet.id, key.sign);
    expect(account.status).toBe("ACTIVE");
  });

  test("a challenge that expired while the wallet was signing is not submitted: it starts over", async () => {
    const key = evmWallet();
    const wallet = await selfCustodyWallet(paysvc, customerId, key.address);
    let calls = 0;
    let firstExpiry = 0;
    const account = await paysvc.externalAccounts.verifyOwnership(
      wallet.id,
      (message, challenge) => {
        calls++;
        if (calls === 1) firstExpiry = Date.parse(challenge.expiresAt);
        return key.sign(message);
      },
      // The user took longer than 10 minutes on the first one.
      { now: () => (calls === 1 ? firstExpiry : Date.now()) },
    );
    expect(calls).toBe(2);
    expect(account.status).toBe("ACTIVE");
  });

  test("the server's 400 for an expired challenge also starts over (the account passes through UNVERIFIED)", async () => {
    const { c, key, wallet } = await walletOnOwnPlatform();
    let calls = 0;
    const account = await c.externalAccounts.verifyOwnership(wallet.id, async (message, challenge) => {
      calls++;
      // The platform clock passes expiresAt while the first signature is produced.
      if (calls === 1) await c.sandbox.advanceClock(new Date(Date.parse(challenge.expiresAt) + 1_000));
      return key.sign(message);
    });
    expect(calls).toBe(2);
    expect(account.status).toBe("ACTIVE");
  });

  test("gives up after maxAttempts expired challenges: PaysvcError OWNERSHIP_CHALLENGE_EXPIRED", async () => {
    const key = evmWallet();
    const wallet = await selfCustodyWallet(paysvc, customerId, key.address);
    const error = await paysvc.externalAccounts
      .verifyOwnership(wallet.id, key.sign, { maxAttempts: 2, now: () => Number.MAX_SAFE_INTEGER })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaysvcError);
    expect(error).toMatchObject({ code: "OWNERSHIP_CHALLENGE_EXPIRED" });
    // Nothing was submitted, so the account never became UNVERIFIED.
    expect((await paysvc.externalAccounts.get(wallet.id)).status).toBe("PENDING_OWNERSHIP_VERIFICATION");
  });

  test("a wrong key: the server's BadRequestError on signature, no second attempt, the account UNVERIFIED", async () => {
    const wallet = await selfCustodyWallet(paysvc, customerId);
    const other = evmWallet();
    let calls = 0;
    const error = await paysvc.externalAccounts
      .verifyOwnership(wallet.id, (message) => {
        calls++;
        return other.sign(message);
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).fieldErrors.map((e) => e.field)).toEqual(["signature"]);
    expect(calls).toBe(1);
    expect((await paysvc.externalAccounts.get(wallet.id)).status).toBe("UNVERIFIED");
  });

  test("after 5 challenges the 6th is 429: it waits Retry-After, then verifies", async () => {
    const { c, key, wallet } = await walletOnOwnPlatform();
    for (let i = 0; i < 5; i++) await c.externalAccounts.challenge(wallet.id, "WALLET_SIGNATURE");
    const limited = await c.externalAccounts
      .challenge(wallet.id, "WALLET_SIGNATURE")
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    const retryAfterSeconds = (limited as RateLimitError).retryAfterSeconds ?? 0;
    expect(retryAfterSeconds).toBeGreaterThan(0);
    expect(retryAfterSeconds).toBeLessThanOrEqual(15 * 60);

    const waits: number[] = [];
    const account = await c.externalAccounts.verifyOwnership(wallet.id, key.sign, {
      // Waiting out Retry-After on the sandbox clock instead of the wall clock.
      sleep: async (ms) => {
        waits.push(ms);
        const { now } = await c.sandbox.getClock();
        await c.sandbox.advanceClock(new Date(Date.parse(now) + ms));
      },
    });
    expect(account.status).toBe("ACTIVE");
    expect(waits.length).toBe(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(retryAfterSeconds * 1000);
    expect(waits[0]).toBeGreaterThanOrEqual((retryAfterSeconds - 5) * 1000);
  });

  test("a Retry-After longer than maxRetryAfterMs rejects with the RateLimitError at once", async () => {
    const { c, key, wallet } = await walletOnOwnPlatform();
    for (let i = 0; i < 5; i++) await c.externalAccounts.challenge(wallet.id, "WALLET_SIGNATURE");
    const waits: number[] = [];
    const error = await c.externalAccounts
      .verifyOwnership(wallet.id, key.sign, {
        maxRetryAfterMs: 1_000,
        sleep: async (ms) => void waits.push(ms),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(waits).toEqual([]);
  });
});

/** A tenant of its own, for tests that move the platform clock or exhaust the challenge rate limit. */
async function walletOnOwnPlatform() {
  const c = new PaysvcClient({ baseUrl: server.baseUrl, ...(await server.newPlatform()) });
  const owner = (await c.customers.create({ customerType: "INDIVIDUAL" })).id;
  const key = evmWallet();
  const wallet = await selfCustodyWallet(c, owner, key.address);
  return { c, key, wallet };
}

describe("externalAccounts.waitForLivenessOutcome(id, options)", () => {
  test("by polling: resolves ACTIVE once the provider-SDK capture (PASS) has been answered", async () => {
    const { c, wallet } = await walletOnOwnPlatform();
    const challenge = await c.externalAccounts.challenge(wallet.id, "LIVENESS");
    const submitted = await c.sandbox.submitLivenessCapture(String(challenge.token), {
      consent: true,
      image: PNG_BASE64,
      outcome: "PASS",
    });
    expect(submitted.lastResponse.status).toBe(202);
    expect(submitted.status).toBe("SUBMITTED");
    const outcome = c.externalAccounts.waitForLivenessOutcome(wallet.id, {
      pollIntervalMs: 50,
      timeoutMs: 20_000,
    });
    await advance(c, 4_000);
    const account = await outcome;
    expect(account.status).toBe("ACTIVE");
    expect(account.id).toBe(wallet.id);
  });

  test("by polling: FAIL resolves UNVERIFIED", async () => {
    const { c, wallet } = await walletOnOwnPlatform();
    const challenge = await c.externalAccounts.challenge(wallet.id, "LIVENESS");
    await c.sandbox.submitLivenessCapture(String(challenge.token), {
      consent: true,
      image: PNG_BASE64,
      outcome: "FAIL",
    });
    const outcome = c.externalAccounts.waitForLivenessOutcome(wallet.id, {
      pollIntervalMs: 50,
      timeoutMs: 20_000,
    });
    await advance(c, 4_000);
    expect((await outcome).status).toBe("UNVERIFIED");
  });

  test("by webhook: resolves from the verified EXTERNAL_ACCOUNT.STATUS_UPDATED before any poll, and closes the feed", async () => {
    const { c, wallet } = await walletOnOwnPlatform();
    const feed = eventFeed();
    const receiver = await startReceiver((_n, res, received) => {
      res.end("ok");
      c.webhooks.verify(received.body, received.headers).then(feed.push, () => undefined);
    });
    try {
      await c.config.update({ webhookEndpoint: receiver.url });
      const challenge = await c.externalAccounts.challenge(wallet.id, "LIVENESS");
      await c.sandbox.submitLivenessCapture(String(challenge.token), {
        consent: true,
        image: PNG_BASE64,
        outcome: "PASS",
      });
      const outcome = c.externalAccounts.waitForLivenessOutcome(wallet.id, {
        pollIntervalMs: 10 * 60_000,
        timeoutMs: 20_000,
        webhookEvents: feed.iterable,
      });
      await advance(c, 4_000);
      const account = await outcome;
      expect(account).toMatchObject({ id: wallet.id, status: "ACTIVE" });
      expect(feed.closed).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  test("events for other accounts, or older than the wait, are ignored", async () => {
    const { c, wallet } = await walletOnOwnPlatform();
    const current = await c.externalAccounts.get(wallet.id);
    const feed = eventFeed();
    const outcome = c.externalAccounts.waitForLivenessOutcome(wallet.id, {
      pollIntervalMs: 60_000,
      timeoutMs: 300,
      webhookEvents: feed.iterable,
    });
    const event = (data: Partial<ExternalAccount>): WebhookEvent => ({
      id: `Webhook:${crypto.randomUUID()}`,
      type: "EXTERNAL_ACCOUNT.STATUS_UPDATED",
      timestamp: new Date().toISOString(),
      data: { ...current, ...data },
    });
    feed.push(event({ id: `ExternalAccount:${crypto.randomUUID()}`, status: "ACTIVE" }));
    feed.push(event({ status: "UNVERIFIED", updatedAt: "2000-01-01T00:00:00.000Z" }));
    await expect(outcome).rejects.toMatchObject({ code: "LIVENESS_OUTCOME_TIMEOUT" });
  });

  test("already decided: resolves at once; still pending after timeoutMs: PaysvcError LIVENESS_OUTCOME_TIMEOUT", async () => {
    const key = evmWallet();
    const verified = await selfCustodyWallet(paysvc, customerId, key.address);
    await paysvc.externalAccounts.verifyOwnership(verified.id, key.sign);
    expect((await paysvc.externalAccounts.waitForLivenessOutcome(verified.id)).status).toBe("ACTIVE");

    const pending = await selfCustodyWallet();
    await paysvc.externalAccounts.challenge(pending.id, "LIVENESS");
    const started = Date.now();
    const error = await paysvc.externalAccounts
      .waitForLivenessOutcome(pending.id, { timeoutMs: 300, pollIntervalMs: 50 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaysvcError);
    expect(error).toMatchObject({ code: "LIVENESS_OUTCOME_TIMEOUT" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("an unknown account rejects with NotFoundError", async () => {
    const missing = `ExternalAccount:${crypto.randomUUID()}`;
    await expect(paysvc.externalAccounts.waitForLivenessOutcome(missing)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  test("the provider-SDK path refuses a second capture (ConflictError) and an unknown token (NotFoundError)", async () => {
    const wallet = await selfCustodyWallet();
    const challenge = await paysvc.externalAccounts.challenge(wallet.id, "LIVENESS");
    const capture = { consent: true, image: PNG_BASE64, outcome: "PASS" } as const;
    await paysvc.sandbox.submitLivenessCapture(String(challenge.token), capture);
    await expect(
      paysvc.sandbox.submitLivenessCapture(String(challenge.token), capture),
    ).rejects.toBeInstanceOf(ConflictError);
    await expect(
      paysvc.sandbox.submitLivenessCapture(randomBytes(32).toString("base64url"), capture),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("receiver.lookupExternalAccount", () => {
  test("answers the account's currency, bounds and a lookupId; an unknown account is NotFoundError ACCOUNT_NOT_FOUND", async () => {
    const bank = await paysvc.externalAccounts.create({
      customerId,
      currency: "USD",
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: "223456789",
        routingNumber: "021000021",
        bankAccountType: "CHECKING",
        beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" },
      },
    });
    const lookup = await paysvc.receiver.lookupExternalAccount(bank.id, { customerId });
    expect(lookup.lastResponse.status).toBe(200);
    expect(lookup).toMatchObject({
      accountId: bank.id,
      lookupId: expect.stringMatching(/^Lookup:/),
      supportedCurrencies: [{ currency: { code: "USD" }, estimatedExchangeRate: 1, min: 1 }],
      requiredPayerDataFields: [],
    });
    const missing = paysvc.receiver.lookupExternalAccount(
      "ExternalAccount:019542f5-b3e7-7d02-8000-000000000001",
    );
    await expect(missing).rejects.toMatchObject({ code: "ACCOUNT_NOT_FOUND", status: 404 });
  });
});
