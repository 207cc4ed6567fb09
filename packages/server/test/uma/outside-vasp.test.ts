import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import {
  Currency,
  getLnurlpResponse,
  getPayReqResponse,
  getPayRequest,
  getPostTransactionCallback,
  getSignedLnurlpRequestUrl,
  InMemoryNonceValidator,
  KycStatus,
  LnurlpResponse,
  PayReqResponse,
  PayRequest,
  PostTransactionCallbackSchema,
  PubKeyResponse,
  parseLnurlpRequest,
  verifyPayReqResponseSignature,
  verifyPayReqSignature,
  verifyPostTransactionCallbackSignature,
  verifyUmaLnurlpQuerySignature,
  verifyUmaLnurlpResponseSignature,
} from "@uma-sdk/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { startServer, type TestServer } from "../harness.js";
import { balanceOf, fund, type Quote } from "../quotes/helpers.js";

// paysvc against a VASP written with @uma-sdk/core alone (this file's HTTP server at outside.test): what
// paysvc sends verifies with the SDK's own functions, and what the SDK produces is accepted by paysvc.

const DOMAIN = "outside.test";
const signingKey = secp256k1.utils.randomSecretKey();
const encryptionKey = secp256k1.utils.randomSecretKey();
const hex = (key: Uint8Array) => Buffer.from(secp256k1.getPublicKey(key, false)).toString("hex");
const verified: string[] = [];
/** How many times paysvc fetched the outside VASP's public keys. */
let pubKeyFetches = 0;
const preimages = new Map<string, string>();

let outside: Server;
let base: string;
let server: TestServer;
let ourDomain: string;

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};

/** paysvc's public keys, as an outside VASP fetches them. */
async function paysvcKeys(): Promise<PubKeyResponse> {
  const res = await fetch(`${server.origin}/uma/${ourDomain}/.well-known/lnurlpubkey`);
  return PubKeyResponse.fromJson(await res.text());
}

async function handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
  const url = new URL(req.url ?? "/", `http://${DOMAIN}`);
  if (url.pathname === "/.well-known/lnurlpubkey") pubKeyFetches++;
  if (url.pathname === "/.well-known/lnurlpubkey")
    return { status: 200, body: { signingPubKey: hex(signingKey), encryptionPubKey: hex(encryptionKey) } };
  if (url.pathname.startsWith("/.well-known/lnurlp/")) {
    const request = parseLnurlpRequest(url);
    if (await verifyUmaLnurlpQuerySignature(request, await paysvcKeys(), new InMemoryNonceValidator(0)))
      verified.push("lnurlp request");
    const response = await getLnurlpResponse({
      request,
      privateKeyBytes: signingKey,
      requiresTravelRuleInfo: true,
      callback: `${base}/payreq/bob`,
      encodedMetadata: JSON.stringify([["text/plain", "Pay $bob"]]),
      minSendableSats: 1,
      maxSendableSats: 10_000_000,
      currencyOptions: [new Currency("USD", "US Dollar", "$", 10_000, 1, 10_000_000, 2)],
      receiverKycStatus: KycStatus.Verified,
    });
    return { status: 200, body: JSON.parse(response.toJsonString()) };
  }
  if (url.pathname === "/payreq/bob") {
    const request = PayRequest.fromJson(await readBody(req));
    if (await verifyPayReqSignature(request, await paysvcKeys(), new InMemoryNonceValidator(0)))
      verified.push("pay request");
    const preimage = randomBytes(32).toString("hex");
    const paymentHash = createHash("sha256").update(Buffer.from(preimage, "hex")).digest("hex");
    preimages.set(paymentHash, preimage);
    const response = await getPayReqResponse({
      request,
      conversionRate: 10_000,
      receivingCurrencyCode: "USD",
      receivingCurrencyDecimals: 2,
      invoiceCreator: { createUmaInvoice: async (msats) => `paysvc-sandbox-invoice:${paymentHash}:${msats}` },
      metadata: JSON.stringify([["text/plain", "Pay $bob"]]),
      receiverChannelUtxos: [],
      receiverFeesMillisats: 0,
      payeeData: { identifier: `$bob@${DOMAIN}` },
      utxoCallback: `${base}/utxo`,
      receivingVaspPrivateKey: signingKey,
      payeeIdentifier: `$bob@${DOMAIN}`,
    });
    return { status: 200, body: JSON.parse(response.toJsonString()) };
  }
  if (url.pathname === "/utxo") {
    const callback = PostTransactionCallbackSchema.parse(JSON.parse(await readBody(req)));
    if (
      await verifyPostTransactionCallbackSignature(
        callback,
        await paysvcKeys(),
        new InMemoryNonceValidator(0),
      )
    )
      verified.push("post-transaction callback");
    return { status: 200, body: { status: "OK" } };
  }
  if (url.pathname === "/uma/sandbox/settle") {
    const { invoice } = JSON.parse(await readBody(req)) as { invoice: string };
    const paymentHash = invoice.split(":")[1] as string;
    return { status: 200, body: { paymentHash, preimage: preimages.get(paymentHash) } };
  }
  return { status: 404, body: { status: "ERROR", code: "NOT_FOUND", reason: "no" } };
}

beforeAll(async () => {
  outside = createServer((req, res) => {
    handle(req).then(
      ({ status, body }) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body)),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => outside.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`;
  server = await startServer({ umaDomains: { [DOMAIN]: base } });
  ourDomain = (await server.client.get<{ umaDomain: string }>("/config")).body.umaDomain;
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => outside.close(resolve));
});

async function customer(): Promise<{ address: string; account: string }> {
  const created = await server.client.post<{ id: string; umaAddress: string }>("/customers", {
    customerType: "INDIVIDUAL",
    ...withEndUserTerms,
  });
  const accounts = await server.client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${created.body.id}&currency=USD`,
  );
  return { address: created.body.umaAddress, account: accounts.body.data[0]?.id as string };
}

describe("paysvc and a VASP built on @uma-sdk/core", () => {
  test("paysvc's LNURLP request and pay request verify with the SDK, and the payment to the outside VASP settles", async () => {
    const sender = await customer();
    await fund(server, sender.account, 2_000);
    const lookup = await server.client.get<{ lookupId: string }>(
      `/receiver/uma/${encodeURIComponent(`$bob@${DOMAIN}`)}`,
    );
    expect(lookup.status).toBe(200);
    const quote = await server.client.post<Quote>("/quotes", {
      lookupId: lookup.body.lookupId,
      source: { sourceType: "ACCOUNT", accountId: sender.account },
      destination: { destinationType: "UMA_ADDRESS", umaAddress: `$bob@${DOMAIN}`, currency: "USD" },
      lockedCurrencySide: "RECEIVING",
      lockedCurrencyAmount: 700,
      immediatelyExecute: true,
    });
    expect([quote.status, quote.body.totalReceivingAmount]).toEqual([201, 700]);
    await server.jobs.runDue();
    const sent = await server.client.get<{ status: string }>(`/transactions/${quote.body.transactionId}`);
    expect(sent.body.status).toBe("COMPLETED");
    expect(verified).toEqual(
      expect.arrayContaining(["lnurlp request", "pay request", "post-transaction callback"]),
    );
  });

  test("a lookup, its quote and the payment's settlement fetch the receiver's public keys at most once (reused for minutes)", async () => {
    const sender = await customer();
    await fund(server, sender.account, 1_000);
    const before = pubKeyFetches;
    const lookup = await server.client.get<{ lookupId: string }>(
      `/receiver/uma/${encodeURIComponent(`$bob@${DOMAIN}`)}`,
    );
    const quote = await server.client.post<Quote>("/quotes", {
      lookupId: lookup.body.lookupId,
      source: { sourceType: "ACCOUNT", accountId: sender.account },
      destination: { destinationType: "UMA_ADDRESS", umaAddress: `$bob@${DOMAIN}`, currency: "USD" },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 300,
      immediatelyExecute: true,
    });
    expect(quote.status).toBe(201);
    await server.jobs.runDue();
    expect(pubKeyFetches - before).toBeLessThanOrEqual(1);
  });

  test("the SDK's LNURLP request and pay request are accepted by paysvc, whose answers verify with the SDK; the customer is credited", async () => {
    const payee = await customer();
    const signed = await getSignedLnurlpRequestUrl({
      isSubjectToTravelRule: true,
      receiverAddress: payee.address,
      senderVaspDomain: DOMAIN,
      signingPrivateKey: signingKey,
    });
    const lnurlp = await fetch(`${server.origin}/uma/${ourDomain}${signed.pathname}${signed.search}`);
    expect(lnurlp.status).toBe(200);
    const response = LnurlpResponse.fromJson(await lnurlp.text());
    const keys = await paysvcKeys();
    expect(await verifyUmaLnurlpResponseSignature(response, keys, new InMemoryNonceValidator(0))).toBe(true);
    const payRequest = await getPayRequest({
      receiverEncryptionPubKey: keys.getEncryptionPubKey(),
      sendingVaspPrivateKey: signingKey,
      receivingCurrencyCode: "USD",
      amount: 321,
      isAmountInReceivingCurrency: true,
      payerIdentifier: `$alice@${DOMAIN}`,
      payerKycStatus: KycStatus.Verified,
      umaMajorVersion: 1,
    });
    const answer = await fetch(response.callback, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: payRequest.toJsonString(),
    });
    expect(answer.status).toBe(200);
    const payReqResponse = PayReqResponse.fromJson(await answer.text());
    const valid = await verifyPayReqResponseSignature(
      payReqResponse,
      `$alice@${DOMAIN}`,
      payee.address,
      keys,
      new InMemoryNonceValidator(0),
    );
    expect([valid, payReqResponse.converted?.amount]).toEqual([true, 321]);
    const settled = await fetch(`${server.origin}/uma/${ourDomain}/uma/sandbox/settle`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ invoice: payReqResponse.pr }),
    });
    expect(settled.status).toBe(200);
    expect(await balanceOf(server, payee.account)).toBe(321);
    // The post-transaction callback, signed by the SDK, at the utxoCallback paysvc named; tampered, refused.
    const utxoCallback = payReqResponse.payeeData?.compliance?.utxoCallback as string;
    const callback = await getPostTransactionCallback({
      utxos: [],
      vaspDomain: DOMAIN,
      signingPrivateKey: signingKey,
    });
    const post = (body: unknown) =>
      fetch(utxoCallback, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await post(callback)).status).toBe(200);
    const forged = await getPostTransactionCallback({
      utxos: [],
      vaspDomain: DOMAIN,
      signingPrivateKey: encryptionKey,
    });
    expect((await post(forged)).status).toBe(401);
  });

  test("a pay request asking for payee data paysvc cannot name -> 501 UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY", async () => {
    const payee = await customer();
    const keys = await paysvcKeys();
    const signed = await getSignedLnurlpRequestUrl({
      isSubjectToTravelRule: true,
      receiverAddress: payee.address,
      senderVaspDomain: DOMAIN,
      signingPrivateKey: signingKey,
    });
    const lnurlp = LnurlpResponse.fromJson(
      await (await fetch(`${server.origin}/uma/${ourDomain}${signed.pathname}${signed.search}`)).text(),
    );
    const payRequest = await getPayRequest({
      receiverEncryptionPubKey: keys.getEncryptionPubKey(),
      sendingVaspPrivateKey: signingKey,
      receivingCurrencyCode: "USD",
      amount: 100,
      isAmountInReceivingCurrency: true,
      payerIdentifier: `$alice@${DOMAIN}`,
      payerKycStatus: KycStatus.Verified,
      umaMajorVersion: 1,
      requestedPayeeData: { favouriteColour: { mandatory: true } },
    });
    const answer = await fetch(lnurlp.callback, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: payRequest.toJsonString(),
    });
    const body = (await answer.json()) as { code: string };
    expect([answer.status, body.code]).toEqual([501, "UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY"]);
  });
});
