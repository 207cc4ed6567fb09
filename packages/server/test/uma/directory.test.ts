import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type {
  UmaProvider,
  UmaProviderListResponse,
  VaspListResponse,
} from "../../src/uma/directory-routes.js";
import { currencySettings, startServer, type TestClient, type TestServer } from "../harness.js";

// GET /uma-providers and GET /vasps (issue 19): the UMA VASPs this deployment knows, in the hosted API's
// shapes (docs/decisions.md "UMA (issue 19)"). The worker's database holds other files' platforms too, so
// these tests find their own entries by domain and walk every page.

type Failure = { code: string; details?: { errors: { field: string }[] } };

const CP = "counterparty.sandbox.localhost";
const PEER = "peer.localhost";
const PEER_URL = "http://127.0.0.1:9/uma/peer.localhost";

let server: TestServer;
let withPeer: TestServer;
beforeAll(async () => {
  server = await startServer();
  withPeer = await startServer({ umaDomains: { [PEER]: PEER_URL } });
});
afterAll(async () => {
  await withPeer.close();
  await server.close();
});

const defaultDomain = (platformId: string) => `${platformId.replace(/-/g, "").slice(-12)}.localhost`;

/** A new platform of `environment` with a name of its own and the given currencies. */
async function platform(
  environment: "SANDBOX" | "PRODUCTION" = "SANDBOX",
  supportedCurrencies?: string[],
  on: TestServer = server,
) {
  const credentials = await on.newPlatform(environment);
  const client = on.client.as(credentials);
  const name = `Directory ${randomUUID().slice(0, 8)}`;
  const res = await client.patch("/config", {
    name,
    ...(supportedCurrencies ? { supportedCurrencies: currencySettings(...supportedCurrencies) } : {}),
  });
  expect(res.status).toBe(200);
  return { client, name, domain: defaultDomain(credentials.platformId) };
}

/** Every page of a list, following nextCursor. */
async function walk<T>(
  client: TestClient,
  path: string,
  query: Record<string, string> = {},
): Promise<{ items: T[]; pages: { hasMore: boolean; totalCount?: number }[] }> {
  const items: T[] = [];
  const pages: { hasMore: boolean; totalCount?: number }[] = [];
  let cursor: string | undefined;
  do {
    const params = new URLSearchParams({ limit: "100", ...query, ...(cursor ? { cursor } : {}) });
    const res = await client.get<{ data: T[]; hasMore: boolean; nextCursor?: string; totalCount?: number }>(
      `${path}?${params}`,
    );
    expect(res.status).toBe(200);
    items.push(...res.body.data);
    pages.push(res.body);
    expect(res.body.hasMore).toBe(res.body.nextCursor !== undefined);
    cursor = res.body.nextCursor;
  } while (cursor);
  return { items, pages };
}

const providers = async (client: TestClient, query: Record<string, string> = {}) =>
  (await walk<UmaProvider>(client, "/uma-providers", query)).items;
const byDomain = (list: UmaProvider[], domain: string) => list.find((p) => p.domain === domain);

describe("what /uma-providers lists", () => {
  test("a platform is listed under its UMA domain with its name, its currencies and their home regions", async () => {
    const own = await platform("SANDBOX", ["USD", "MXN", "USDC"]);
    const entry = byDomain(await providers(own.client), own.domain);
    expect(entry).toEqual({
      name: own.name,
      domain: own.domain,
      supportedRegions: ["MX", "US"],
      supportedCurrencies: [
        { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2 },
        { code: "MXN", name: "Mexican Peso", symbol: "$", decimals: 2 },
        { code: "USDC", name: "USD Coin", symbol: "USDC", decimals: 6 },
      ],
      allowListStatus: true,
    });
  });

  test("a platform is listed its own domain and never another tenant's", async () => {
    const sandbox = await platform("SANDBOX");
    const production = await platform("PRODUCTION");
    const seenBySandbox = (await providers(sandbox.client)).map((p) => p.domain);
    const seenByProduction = (await providers(production.client)).map((p) => p.domain);
    expect(seenBySandbox).toContain(sandbox.domain);
    expect(seenBySandbox).not.toContain(defaultDomain(server.platform.platformId));
    expect(seenBySandbox).not.toContain(production.domain);
    expect(seenByProduction).toEqual([production.domain]);
  });

  test("the sandbox counterparty is listed to sandbox platforms, receiving every currency it prices; its failing subdomains are not", async () => {
    const list = await providers(server.client);
    const counterparty = byDomain(list, CP);
    expect(counterparty?.name).toBe("paysvc sandbox counterparty");
    const codes = counterparty?.supportedCurrencies.map((c) => c.code);
    expect(codes).toEqual(expect.arrayContaining(["USD", "EUR", "MXN"]));
    expect(counterparty?.supportedRegions).toEqual(expect.arrayContaining(["US", "DE", "MX"]));
    expect(list.filter((p) => p.domain.endsWith(`.${CP}`))).toEqual([]);
  });

  test("production platforms are not shown the sandbox counterparty", async () => {
    const production = await platform("PRODUCTION");
    expect(byDomain(await providers(production.client), CP)).toBeUndefined();
  });

  test("a production-mode deployment does not list the sandbox counterparty, even to sandbox platforms", async () => {
    const productionMode = await startServer({ mode: "production" });
    try {
      expect(byDomain(await providers(productionMode.client), CP)).toBeUndefined();
    } finally {
      await productionMode.close();
    }
  });

  test("each PAYSVC_UMA_DOMAINS domain is listed, named by its domain, with no currencies or regions known", async () => {
    const entry = byDomain(await providers(withPeer.client), PEER);
    expect(entry).toEqual({
      name: PEER,
      domain: PEER,
      supportedRegions: [],
      supportedCurrencies: [],
      allowListStatus: true,
    });
    expect(byDomain(await providers(server.client), PEER)).toBeUndefined();
  });

  test("hasBlockedProviders changes nothing: no provider is blocked, every allowListStatus is true", async () => {
    const all = await providers(server.client);
    const withBlocked = await providers(server.client, { hasBlockedProviders: "true" });
    expect(withBlocked).toEqual(all);
    expect(all.every((p) => p.allowListStatus)).toBe(true);
  });
});

describe("filters of /uma-providers", () => {
  test("currencyCode keeps the providers that receive the currency", async () => {
    const mxn = await platform("SANDBOX", ["MXN"]);
    const usd = await platform("SANDBOX", ["USD"]);
    const list = await providers(mxn.client, { currencyCode: "MXN" });
    expect(list.map((p) => p.domain)).toEqual(expect.arrayContaining([mxn.domain, CP]));
    expect(byDomain(list, usd.domain)).toBeUndefined();
    expect(list.every((p) => p.supportedCurrencies.some((c) => c.code === "MXN"))).toBe(true);
  });

  test("countryCode keeps the providers whose regions include the country", async () => {
    const mxn = await platform("SANDBOX", ["MXN"]);
    const usd = await platform("SANDBOX", ["USD"]);
    const list = await providers(mxn.client, { countryCode: "MX" });
    expect(byDomain(list, mxn.domain)).toBeDefined();
    expect(byDomain(list, usd.domain)).toBeUndefined();
    expect(list.every((p) => p.supportedRegions.includes("MX"))).toBe(true);
  });

  test("a currency no provider receives is an empty list, not an error", async () => {
    const res = await server.client.get<UmaProviderListResponse>("/uma-providers?currencyCode=ZZZ");
    expect([res.status, res.body]).toEqual([200, { data: [], hasMore: false, totalCount: 0 }]);
  });
});

describe("pagination of /uma-providers", () => {
  test("pages follow nextCursor without repeat or gap, by domain, descending by default; totalCount counts the filtered list", async () => {
    await platform();
    const { items: pagedBy7, pages } = await walk<UmaProvider>(server.client, "/uma-providers", {
      limit: "7",
    });
    const domains = pagedBy7.map((p) => p.domain);
    expect(new Set(domains).size).toBe(domains.length);
    expect(domains).toEqual([...domains].sort().reverse());
    expect(pages.every((page) => page.totalCount === domains.length)).toBe(true);
    const ascending = (await providers(server.client, { sortOrder: "asc" })).map((p) => p.domain);
    expect(ascending).toEqual([...domains].reverse());
  });

  test("limit=1 answers one provider and a cursor to the next", async () => {
    const res = await server.client.get<UmaProviderListResponse>("/uma-providers?limit=1");
    expect([res.body.data.length, res.body.hasMore, typeof res.body.nextCursor]).toEqual([1, true, "string"]);
  });

  test("a cursor of another order, another filter, another platform or another list is 400 INVALID_INPUT on cursor", async () => {
    const first = await server.client.get<UmaProviderListResponse>("/uma-providers?limit=1");
    const cursor = encodeURIComponent(first.body.nextCursor ?? "");
    const other = server.client.as(await server.newPlatform());
    for (const [client, path] of [
      [server.client, `/uma-providers?cursor=${cursor}&sortOrder=asc`],
      [server.client, `/uma-providers?cursor=${cursor}&currencyCode=USD`],
      [other, `/uma-providers?cursor=${cursor}`],
      [server.client, `/vasps?cursor=${cursor}`],
      [server.client, "/uma-providers?cursor=bm90LWEtY3Vyc29y"],
    ] as const) {
      const res = await client.get<Failure>(path);
      expect([path, res.status, res.body.code, res.body.details?.errors[0]?.field]).toEqual([
        path,
        400,
        "INVALID_INPUT",
        "cursor",
      ]);
    }
  });
});

describe.each([
  ["/uma-providers?limit=0", "limit"],
  ["/uma-providers?limit=101", "limit"],
  ["/uma-providers?countryCode=us", "countryCode"],
  ["/uma-providers?currencyCode=usd", "currencyCode"],
  ["/uma-providers?sortOrder=up", "sortOrder"],
  ["/uma-providers?hasBlockedProviders=maybe", "hasBlockedProviders"],
  ["/uma-providers?region=US", "region"],
  ["/vasps?limit=0", "limit"],
  ["/vasps?sortOrder=asc", "sortOrder"],
])("bad query %s", (path, field) => {
  test(`-> 400 INVALID_INPUT on ${field}`, async () => {
    const res = await server.client.get<Failure>(path);
    expect([res.status, res.body.code, res.body.details?.errors[0]?.field]).toEqual([
      400,
      "INVALID_INPUT",
      field,
    ]);
  });
});

describe("/vasps", () => {
  test("a platform's VASP entry names it, and its url is where its UMA endpoints answer", async () => {
    const own = await platform();
    const { items } = await walk<VaspListResponse["data"][number]>(own.client, "/vasps");
    const entry = items.find((v) => v.vaspName === own.name);
    expect(entry?.url).toBe(`${server.origin}/uma/${own.domain}`);
    const keys = await fetch(`${entry?.url}/.well-known/lnurlpubkey`);
    expect(keys.status).toBe(200);
    expect(((await keys.json()) as { signingPubKey: string }).signingPubKey).toMatch(/^04[0-9a-f]{128}$/);
  });

  test("the sandbox counterparty is served by this deployment; a PAYSVC_UMA_DOMAINS entry is at its configured URL", async () => {
    const { items } = await walk<VaspListResponse["data"][number]>(withPeer.client, "/vasps");
    expect(items).toContainEqual({
      vaspName: "paysvc sandbox counterparty",
      url: `${withPeer.origin}/uma/${CP}`,
    });
    expect(items).toContainEqual({ vaspName: PEER, url: PEER_URL });
  });

  test("vasps are ordered by name and paginated with hasMore and nextCursor, without totalCount", async () => {
    const { items, pages } = await walk<VaspListResponse["data"][number]>(server.client, "/vasps", {
      limit: "9",
    });
    const names = items.map((v) => v.vaspName);
    expect(names).toEqual([...names].sort());
    expect(new Set(items.map((v) => v.url)).size).toBe(items.length);
    expect(pages.every((page) => page.totalCount === undefined)).toBe(true);
  });
});

test("the directory needs credentials -> 401", async () => {
  for (const path of ["/uma-providers", "/vasps"]) {
    const res = await server.client.get<Failure>(path, { auth: null });
    expect(res.status).toBe(401);
  }
});
