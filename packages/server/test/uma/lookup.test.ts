import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withEndUserTerms } from "../customers/end-user-terms.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";

// GET /receiver/uma/{address} between two platforms of one paysvc over real HTTP, and against the
// sandbox counterparty's documented addresses (docs/guides/uma.md).

type ErrorBody = { code: string; reason: string };
type Lookup = {
  lookupId: string;
  receiverUmaAddress: string;
  supportedCurrencies: {
    currency: { code: string };
    estimatedExchangeRate: number;
    min: number;
    max: number;
  }[];
  requiredPayerDataFields: { name: string; mandatory: boolean }[];
};

let server: TestServer;
let receiverPlatform: TestClient;
beforeAll(async () => {
  server = await startServer();
  receiverPlatform = server.client.as(await server.newPlatform());
});
afterAll(() => server.close());

const CP = "counterparty.sandbox.localhost";
const lookup = <T>(address: string, client: TestClient = server.client) =>
  client.get<T>(`/receiver/uma/${encodeURIComponent(address)}`);

async function receiverAddress(): Promise<string> {
  const res = await receiverPlatform.post<{ umaAddress: string }>("/customers", {
    customerType: "INDIVIDUAL",
    ...withEndUserTerms,
  });
  return res.body.umaAddress;
}

describe("lookups between two platforms of one paysvc", () => {
  test("a customer created without umaAddress receives at its platform's default domain", async () => {
    const address = await receiverAddress();
    const label = receiverPlatform.credentials?.platformId.replace(/-/g, "").slice(-12);
    expect(address).toMatch(new RegExp(`^\\$[0-9a-f]{12}@${label}\\.localhost$`));
  });

  test("a lookup of another platform's customer answers its USD currency, a lookupId and the payer data it requires", async () => {
    const address = await receiverAddress();
    const res = await lookup<Lookup>(address);
    expect(res.status).toBe(200);
    expect(res.body.lookupId).toMatch(/^Lookup:/);
    expect(res.body.receiverUmaAddress).toBe(address);
    const [usd] = res.body.supportedCurrencies;
    expect([usd?.currency.code, usd?.estimatedExchangeRate, usd?.min]).toEqual(["USD", 1, 1]);
    expect(res.body.requiredPayerDataFields).toContainEqual({ name: "FULL_NAME", mandatory: false });
  });

  test("an address of the platform's domain with no customer -> 404 UMA_NOT_FOUND", async () => {
    const address = await receiverAddress();
    const res = await lookup<ErrorBody>(address.replace(/^\$[0-9a-f]+@/, "$nobody@"));
    expect([res.status, res.body.code]).toEqual([404, "UMA_NOT_FOUND"]);
  });

  test("the lnurlpubkey a platform serves holds its secp256k1 keys in certificate chains", async () => {
    const address = await receiverAddress();
    const domain = address.split("@")[1];
    const res = await fetch(`${server.origin}/uma/${domain}/.well-known/lnurlpubkey`);
    const body = (await res.json()) as Record<string, string | string[]>;
    expect(res.status).toBe(200);
    expect(body.signingPubKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(body.encryptionPubKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(body.encryptionPubKey).not.toBe(body.signingPubKey);
    expect(body.signingCertChain).toHaveLength(2);
  });
});

describe("lookup failures, each through the sandbox counterparty", () => {
  const cases: [string, number, string][] = [
    ["$alice", 400, "INVALID_UMA_ADDRESS"],
    ["$alice@not a domain", 400, "INVALID_UMA_ADDRESS"],
    [`$nobody@${CP}`, 404, "UMA_NOT_FOUND"],
    [`$unavailable@${CP}`, 424, "LNURLP_REQUEST_FAILED"],
    [`$malformed@${CP}`, 400, "PARSE_LNURLP_RESPONSE_ERROR"],
    [`$missing.uma@${CP}`, 400, "MISSING_REQUIRED_UMA_PARAMETERS"],
    [`$old.version@${CP}`, 424, "NO_COMPATIBLE_UMA_VERSION"],
    [`$bad.signature@${CP}`, 400, "LOOKUP_REQUEST_FAILED"],
    [`$stale.timestamp@${CP}`, 400, "INVALID_TIMESTAMP"],
    [`$success@no-pubkey.${CP}`, 424, "COUNTERPARTY_PUBKEY_FETCH_ERROR"],
    [`$success@bad-pubkey.${CP}`, 400, "INVALID_PUBKEY_FORMAT"],
    [`$success@expired-cert.${CP}`, 400, "CERT_CHAIN_EXPIRED"],
    [`$success@invalid-cert.${CP}`, 400, "CERT_CHAIN_INVALID"],
    ["$someone@unreachable.localhost", 424, "LNURLP_REQUEST_FAILED"],
  ];
  test.each(cases)("%s -> %i %s", async (address, status, code) => {
    const res = await lookup<ErrorBody>(address);
    expect([res.status, res.body.code]).toEqual([status, code]);
  });

  test("a replayed response nonce -> 400 INVALID_NONCE on the second lookup", async () => {
    const client = server.client.as(await server.newPlatform());
    expect((await lookup(`$replayed.nonce@${CP}`, client)).status).toBe(200);
    const again = await lookup<ErrorBody>(`$replayed.nonce@${CP}`, client);
    expect([again.status, again.body.code]).toEqual([400, "INVALID_NONCE"]);
  });

  test("$success.<currency> receives that currency, priced from USD", async () => {
    const res = await lookup<Lookup>(`$success.eur@${CP}`);
    expect(res.status).toBe(200);
    const [eur] = res.body.supportedCurrencies;
    expect(eur?.currency.code).toBe("EUR");
    expect(eur?.estimatedExchangeRate).toBeGreaterThan(0.5);
    expect(eur?.estimatedExchangeRate).toBeLessThan(1.5);
  });
});
