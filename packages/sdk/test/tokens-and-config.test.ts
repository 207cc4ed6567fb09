import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startServer, type TestServer } from "../../server/test/harness.js";
import { AuthenticationError, NotFoundError, PaysvcClient } from "../src/index.js";

let server: TestServer;
let paysvc: PaysvcClient;
beforeAll(async () => {
  server = await startServer();
  paysvc = new PaysvcClient({ baseUrl: server.baseUrl, ...server.platform });
});
afterAll(() => server.close());

describe("API tokens through the SDK", () => {
  test("a created token authenticates a new client; its secret is shown only at create", async () => {
    const created = await paysvc.tokens.create({ name: "integration", permissions: ["VIEW", "MANAGE"] });
    expect(created).toMatchObject({ name: "integration", permissions: ["VIEW", "MANAGE"] });
    expect(created.id).toMatch(/^Token:/);
    expect(created.clientId).toMatch(/^[0-9a-f]{32}$/);
    expect(created.clientSecret).toEqual(expect.any(String));
    expect(created.lastResponse.status).toBe(201);

    const fetched = await paysvc.tokens.get(created.id);
    expect(fetched).not.toHaveProperty("clientSecret");
    const { clientSecret: _secret, ...withoutSecret } = created;
    expect(fetched).toEqual(withoutSecret);

    const other = new PaysvcClient({ baseUrl: server.baseUrl, ...created });
    expect((await other.config.get()).id).toBe(server.platform.platformId);
  });

  test("a deleted token answers 204, stops authenticating and is TOKEN_NOT_FOUND", async () => {
    const created = await paysvc.tokens.create({ name: "short lived", permissions: ["VIEW"] });
    const deleted = await paysvc.tokens.delete(created.id);
    expect(deleted).toEqual({});
    expect(deleted.lastResponse).toEqual({ requestId: expect.stringMatching(/^req_/), status: 204 });

    const revoked = new PaysvcClient({ baseUrl: server.baseUrl, ...created, maxRetries: 0 });
    await expect(revoked.config.get()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(paysvc.tokens.get(created.id)).rejects.toMatchObject({
      constructor: NotFoundError,
      code: "TOKEN_NOT_FOUND",
    });
    await expect(paysvc.tokens.delete(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  test("list pages tokens and listAll yields every one", async () => {
    const own = await server.newPlatform();
    const tenant = new PaysvcClient({ baseUrl: server.baseUrl, ...own });
    for (const name of ["a", "b", "c"]) await tenant.tokens.create({ name, permissions: ["VIEW"] });
    const page = await tenant.tokens.list({ limit: 2 });
    expect(page).toMatchObject({ hasMore: true, totalCount: 4 });
    expect(page.data).toHaveLength(2);
    const names = [];
    for await (const token of tenant.tokens.listAll({ limit: 3, sortOrder: "asc" })) names.push(token.name);
    expect(names).toEqual(["default", "a", "b", "c"]);
  });
});

describe("platform config through the SDK", () => {
  test("get returns the sandbox platform's configuration", async () => {
    const config = await paysvc.config.get();
    expect(config).toMatchObject({
      id: server.platform.platformId,
      environment: "SANDBOX",
      sandboxSkipVerificationPaperwork: false,
      webhookEndpoint: null,
    });
    expect(config.supportedCurrencies.map((c) => c.currencyCode)).toEqual(["USD", "USDB"]);
    expect(config.lastResponse.requestId).toMatch(/^req_/);
  });

  test("update changes the given fields and a later get sees them", async () => {
    const updated = await paysvc.config.update({ name: "renamed", sandboxSkipVerificationPaperwork: true });
    expect(updated).toMatchObject({ name: "renamed", sandboxSkipVerificationPaperwork: true });
    expect(await paysvc.config.get()).toEqual(updated);
  });
});
