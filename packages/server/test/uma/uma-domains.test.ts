import { once } from "node:events";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseSettings } from "../../src/config.js";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { startServer, type TestServer } from "../harness.js";
import { migratedDataDir, type PaysvcProcess, spawnPaysvc } from "../paysvc-process.js";
import { fund, newAccount, type Quote } from "../quotes/helpers.js";

// PAYSVC_UMA_DOMAINS (issue 19): UMA domains reached at another address than their own, so that two paysvc
// processes on loopback can look each other's customers up (docs/guides/uma.md).

const domains = (value: string) => parseSettings(["start"], { PAYSVC_UMA_DOMAINS: value }).umaDomains;

describe("PAYSVC_UMA_DOMAINS parsing", () => {
  test("domain=URL entries, comma-separated, become the map: domains lowercased, trailing slashes dropped", () => {
    expect(
      domains(
        " a1b2c3d4e5f6.localhost=http://127.0.0.1:8081/uma/a1b2c3d4e5f6.localhost/ , Pay.Example.com=https://uma.example.net",
      ),
    ).toEqual({
      "a1b2c3d4e5f6.localhost": "http://127.0.0.1:8081/uma/a1b2c3d4e5f6.localhost",
      "pay.example.com": "https://uma.example.net",
    });
  });

  test("unset or empty, there is no map (every domain resolves as uma/counterparty.ts says)", () => {
    expect(parseSettings(["start"], {}).umaDomains).toBeUndefined();
    expect(domains("  ")).toBeUndefined();
  });

  test.each([
    ["peer.localhost", /entry "peer.localhost" is not domain=URL/],
    ["peer.localhost:8081=http://127.0.0.1:8081", /domain "peer.localhost:8081" has a port/],
    ["localhost=http://127.0.0.1:8081", /domain "localhost" is not a DNS name/],
    ["under_score.localhost=http://127.0.0.1:8081", /domain "under_score.localhost" is not a DNS name/],
    ["http://peer.localhost=http://127.0.0.1:8081", /is not a DNS name/],
    ["peer.localhost=127.0.0.1:8081", /URL "127.0.0.1:8081" of peer.localhost is not/],
    ["peer.localhost=ftp://127.0.0.1/", /not an http\(s\) URL/],
    ["peer.localhost=http://user:secret@127.0.0.1:8081", /must have no credentials, query or fragment/],
    ["peer.localhost=http://127.0.0.1:8081/?x=1", /must have no credentials, query or fragment/],
    ["peer.localhost=http://a:1,PEER.localhost=http://b:2", /names peer.localhost twice/],
  ])("a bad value fails the start with one readable message: %s", (value, message) => {
    expect(() => domains(value)).toThrow(message);
    expect(() => domains(value)).toThrow(/^invalid configuration: PAYSVC_UMA_DOMAINS /);
  });
});

describe("two paysvc processes on loopback (PAYSVC_UMA_DOMAINS on both sides)", () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  const defaultDomain = (platformId: string) => `${platformId.replace(/-/g, "").slice(-12)}.localhost`;

  async function stop(run: PaysvcProcess): Promise<void> {
    if (run.child.exitCode !== null) return;
    const exited = once(run.child, "exit");
    run.child.kill("SIGTERM");
    await exited;
  }

  /** A paysvc process of its own (embedded database), which reaches this process's platform through its map. */
  async function spawnPeer(here: TestServer) {
    const senderDomain = defaultDomain(here.platform.platformId);
    const dataDir = await migratedDataDir("paysvc-uma-domains");
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const peer = await spawnPaysvc(["start", "--port", "0", "--data-dir", dataDir], {
      env: {
        LOG_LEVEL: "warn",
        PAYSVC_UMA_DOMAINS: `${senderDomain}=${here.origin}/uma/${senderDomain}`,
        // Statements of the last minutes are available at once (no card settlement to wait for).
        PAYSVC_SETTLEMENT_LAG_HOURS: "0",
      },
    });
    cleanup.push(() => stop(peer));
    const [, peerOrigin = ""] = await peer.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)\/2025-10-13\n/);
    await peer.waitFor(/API token id /);
    const saved = JSON.parse(await readFile(join(dataDir, "credentials.json"), "utf8"));
    const authorization = `Basic ${Buffer.from(`${saved.clientId}:${saved.clientSecret}`).toString("base64")}`;
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${peerOrigin}/2025-10-13${path}`, {
        ...init,
        headers: { authorization, "content-type": "application/json" },
      });
    const newCustomer = async () => {
      const created = (await (
        await api("/customers", {
          method: "POST",
          body: JSON.stringify({ customerType: "INDIVIDUAL", ...withEndUserTerms }),
        })
      ).json()) as { id: string; umaAddress: string };
      const accounts = (await (
        await api(`/customers/internal-accounts?customerId=${created.id}&currency=USD`)
      ).json()) as {
        data: { id: string }[];
      };
      return { ...created, account: accounts.data[0]?.id as string };
    };
    return { peerOrigin, senderDomain, api, newCustomer };
  }

  let shared: { here: TestServer; peer: Awaited<ReturnType<typeof spawnPeer>> } | undefined;
  async function herePeer() {
    if (!shared) {
      const here = await startServer({ settlementLagMs: 0 });
      cleanup.push(() => here.close());
      shared = { here, peer: await spawnPeer(here) };
    }
    return shared;
  }

  test("a platform of this process looks up a customer of a spawned paysvc, which checks the sender's keys through its map", async () => {
    const { here, peer } = await herePeer();
    const { peerOrigin, senderDomain, api } = peer;
    const customer = await peer.newCustomer();
    const receiverDomain = customer.umaAddress.split("@")[1] ?? "";

    const listed = (await (await api("/uma-providers?limit=100")).json()) as { data: { domain: string }[] };
    expect(listed.data.map((p) => p.domain)).toContain(senderDomain);

    const unmapped = await here.client.get<{ code: string }>(
      `/receiver/uma/${encodeURIComponent(customer.umaAddress)}`,
    );
    expect([unmapped.status, unmapped.body.code]).toEqual([424, "LNURLP_REQUEST_FAILED"]);

    const mapped = await startServer({
      umaDomains: { [receiverDomain]: `${peerOrigin}/uma/${receiverDomain}` },
    });
    cleanup.push(() => mapped.close());
    const found = await mapped.client.as(here.platform).get<{
      lookupId: string;
      receiverUmaAddress: string;
      supportedCurrencies: { currency: { code: string } }[];
    }>(`/receiver/uma/${encodeURIComponent(customer.umaAddress)}`);
    expect(found.status).toBe(200);
    expect(found.body.lookupId).toMatch(/^Lookup:/);
    expect(found.body.receiverUmaAddress).toBe(customer.umaAddress);
    expect(found.body.supportedCurrencies.map((c) => c.currency.code)).toContain("USD");
  }, 120_000);

  test("a payment between the two processes: lookup, quote, execute, settlement, both statements and both platforms' events", async () => {
    const { here, peer } = await herePeer();
    const payee = await peer.newCustomer();
    const receiverDomain = payee.umaAddress.split("@")[1] ?? "";
    const mapped = await startServer({
      umaDomains: { [receiverDomain]: `${peer.peerOrigin}/uma/${receiverDomain}` },
    });
    cleanup.push(() => mapped.close());
    const sender = await newAccount(here);
    await fund(here, sender, 10_000);
    const lookup = await mapped.client
      .as(here.platform)
      .get<{ lookupId: string }>(`/receiver/uma/${encodeURIComponent(payee.umaAddress)}`);
    const quote = await here.client.post<Quote>("/quotes", {
      lookupId: lookup.body.lookupId,
      source: { sourceType: "ACCOUNT", accountId: sender },
      destination: { destinationType: "UMA_ADDRESS", umaAddress: payee.umaAddress, currency: "USD" },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 2_500,
    });
    expect([quote.status, quote.body.totalReceivingAmount]).toEqual([201, 2_500]);
    const executed = await here.client.post<Quote>(`/quotes/${quote.body.id}/execute`, {});
    expect(executed.body.status).toBe("PROCESSING");
    await here.jobs.runDue();
    const sent = await here.client.get<{ status: string }>(`/transactions/${quote.body.transactionId}`);
    expect(sent.body.status).toBe("COMPLETED");

    // Both statements: one change each, and the window identity holds on each side.
    const window = `from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&to=${encodeURIComponent(new Date().toISOString())}`;
    type Changes = {
      data: { amount: { amount: number } }[];
      openingBalance: { amount: number };
      closingBalance: { amount: number };
    };
    const senderChanges = (
      await here.client.get<Changes>(`/internal-accounts/${sender}/balance-changes?${window}`)
    ).body;
    const payeeChanges = (await (
      await peer.api(`/internal-accounts/${payee.account}/balance-changes?${window}`)
    ).json()) as Changes;
    expect(senderChanges.data.map((c) => c.amount.amount)).toEqual([10_000, -2_500]);
    expect(payeeChanges.data.map((c) => c.amount.amount)).toEqual([2_500]);
    for (const changes of [senderChanges, payeeChanges])
      expect(changes.openingBalance.amount + changes.data.reduce((sum, c) => sum + c.amount.amount, 0)).toBe(
        changes.closingBalance.amount,
      );

    // Both platforms' events: the sender's outgoing payment, the receiver's incoming one.
    type Deliveries = { data: { eventType: string }[] };
    const senderEvents = (await here.client.get<Deliveries>("/webhooks/deliveries?limit=100")).body.data.map(
      (d) => d.eventType,
    );
    const payeeEvents = (
      (await (await peer.api("/webhooks/deliveries?limit=100")).json()) as Deliveries
    ).data.map((d) => d.eventType);
    expect(senderEvents).toEqual(
      expect.arrayContaining(["OUTGOING_PAYMENT.PROCESSING", "OUTGOING_PAYMENT.COMPLETED"]),
    );
    expect(payeeEvents).toEqual(
      expect.arrayContaining(["INCOMING_PAYMENT.PENDING", "INCOMING_PAYMENT.COMPLETED"]),
    );
  }, 120_000);
});
