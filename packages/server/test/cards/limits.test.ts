import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { setCardLimits } from "../../src/cards/limits.js";
import type { Card } from "../../src/cards/schemas.js";
import { parseCardLimitsArgs, runCardLimitsCommand } from "../../src/cli/card-limits.js";
import { startServer, type TestClient, type TestServer } from "../harness.js";
import { migratedDataDir, runPaysvc } from "../paysvc-process.js";
import { type Cardholder, cardPlatform, issueCard, newCardholder } from "./helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** A fresh card platform with the given caps, set the operator's way (the domain function). */
async function limitedPlatform(maxLiveCards: number, perCardholder: number | null = null) {
  const setup = await cardPlatform(server);
  await setCardLimits(server.deps, setup.platform.platformId, {
    maxLiveCards,
    maxLiveCardsPerCardholder: perCardholder,
  });
  return setup;
}

const postCard = (client: TestClient, holder: Cardholder) =>
  client.post<Card>("/cards", {
    cardholderId: holder.customerId,
    form: "VIRTUAL",
    fundingSources: [holder.accountId],
  });

async function closeCard(client: TestClient, card: Card): Promise<void> {
  await server.jobs.runDue();
  const res = await client.patch(`/cards/${card.id}`, { status: "CLOSED" });
  expect(res.status, res.text).toBe(200);
}

describe("live-card caps", () => {
  test("the platform cap reached -> 409 CARD_LIMIT_REACHED", async () => {
    const { client } = await limitedPlatform(2);
    const holder = await newCardholder(client);
    await issueCard(client, holder);
    await issueCard(client, await newCardholder(client));
    const res = await postCard(client, holder);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "CARD_LIMIT_REACHED" });
  });

  test("closing a card frees a live-card slot", async () => {
    const { client } = await limitedPlatform(1);
    const holder = await newCardholder(client);
    const first = await issueCard(client, holder);
    expect((await postCard(client, holder)).status).toBe(409);
    await closeCard(client, first);
    expect((await postCard(client, holder)).status).toBe(201);
  });

  test("an issuer-rejected card (CLOSED) holds no slot", async () => {
    const { client } = await limitedPlatform(1);
    const holder = await newCardholder(client);
    await issueCard(client, holder, { platformCardId: "rejected-002" });
    await server.jobs.runDue();
    expect((await postCard(client, holder)).status).toBe(201);
  });

  test("per-cardholder cap 1 on a limited platform -> the cardholder's second card is 409; others still get one", async () => {
    const { client } = await limitedPlatform(100, 1);
    const holder = await newCardholder(client);
    const first = await issueCard(client, holder);
    const second = await postCard(client, holder);
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: "CARD_LIMIT_REACHED" });
    expect((await postCard(client, await newCardholder(client))).status).toBe(201);
    await closeCard(client, first);
    expect((await postCard(client, holder)).status).toBe(201);
  });

  test("two concurrent POST /cards for the last slot -> exactly one 201, the other 409 CARD_LIMIT_REACHED", async () => {
    const { client } = await limitedPlatform(1);
    const [a, b] = [await newCardholder(client), await newCardholder(client)];
    const results = await Promise.all([postCard(client, a), postCard(client, b)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)?.body).toMatchObject({ code: "CARD_LIMIT_REACHED" });
    const live = await client.get<{ totalCount: number }>("/cards");
    expect(live.body.totalCount).toBe(1);
  });

  test("GET /config shows the caps the operator set", async () => {
    const { client } = await limitedPlatform(7, 2);
    const config = await client.get<{ cardLimits: unknown }>("/config");
    expect(config.body.cardLimits).toEqual({ maxLiveCards: 7, maxLiveCardsPerCardholder: 2 });
  });
});

describe("setCardLimits (operator)", () => {
  test("without maxLiveCardsPerCardholder the current per-cardholder cap is kept; null removes it", async () => {
    const { platform } = await limitedPlatform(10, 3);
    const kept = await setCardLimits(server.deps, platform.platformId, { maxLiveCards: 20 });
    expect(kept).toEqual({ platformId: platform.platformId, maxLiveCards: 20, maxLiveCardsPerCardholder: 3 });
    const removed = await setCardLimits(server.deps, platform.platformId, {
      maxLiveCards: 20,
      maxLiveCardsPerCardholder: null,
    });
    expect(removed.maxLiveCardsPerCardholder).toBeNull();
  });

  test("an unknown platform is refused", async () => {
    await expect(
      setCardLimits(server.deps, "Platform:0190d2a1-7c4e-7b3a-9f00-1234567890ab", { maxLiveCards: 1 }),
    ).rejects.toThrow(/no platform/);
  });

  test.each([{ maxLiveCards: -1 }, { maxLiveCards: 1.5 }, { maxLiveCards: 1, maxLiveCardsPerCardholder: 0 }])(
    "caps out of range are refused: $maxLiveCards / $maxLiveCardsPerCardholder",
    async (change) => {
      await expect(setCardLimits(server.deps, server.platform.platformId, change)).rejects.toThrow(
        RangeError,
      );
    },
  );
});

describe("paysvc card-limits", () => {
  const platform = "Platform:0190d2a1-7c4e-7b3a-9f00-1234567890ab";

  test.each([
    { args: ["--platform", platform, "--max-live-cards", "5"], expected: { maxLiveCards: 5 } },
    {
      args: ["--platform", platform, "--max-live-cards", "5", "--per-cardholder", "none"],
      expected: { maxLiveCards: 5, maxLiveCardsPerCardholder: null },
    },
    {
      args: ["--platform", platform, "--max-live-cards", "0", "--per-cardholder", "2"],
      expected: { maxLiveCards: 0, maxLiveCardsPerCardholder: 2 },
    },
  ])("parses $args", ({ args, expected }) => {
    const parsed = parseCardLimitsArgs(args, {});
    expect(parsed).toEqual({ platformId: platform, dataDir: ".paysvc", ...expected });
  });

  test.each([
    { args: ["--max-live-cards", "5"], message: /--platform required/ },
    { args: ["--platform", platform], message: /--max-live-cards required/ },
    { args: ["--platform", platform, "--max-live-cards", "five"], message: /maxLiveCards/ },
    { args: ["--platform", platform, "--max-live-cards", "1e3"], message: /maxLiveCards/ },
    {
      args: ["--platform", platform, "--max-live-cards", "5", "--per-cardholder", "0"],
      message: /PerCardholder/,
    },
    { args: ["--platform", platform, "--max-live-cards", "5", "--color"], message: /--color/ },
  ])("refuses $args with one readable message", ({ args, message }) => {
    expect(() => parseCardLimitsArgs(args, {})).toThrow(message);
  });

  test("runs against the database: exit 0 with the new limits, which POST /cards then enforces", async () => {
    const { client, platform: own } = await cardPlatform(server);
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdout: { write: (t: string) => out.push(t) },
      stderr: { write: (t: string) => err.push(t) },
    };
    const command = parseCardLimitsArgs(
      ["--platform", own.platformId, "--max-live-cards", "1", "--per-cardholder", "none"],
      {},
    );
    expect(await runCardLimitsCommand(server.deps, command, io)).toBe(0);
    expect(JSON.parse(out.join(""))).toEqual({
      platformId: own.platformId,
      maxLiveCards: 1,
      maxLiveCardsPerCardholder: null,
    });
    await issueCard(client, await newCardholder(client));
    expect((await postCard(client, await newCardholder(client))).status).toBe(409);
  });

  test("an unknown platform: exit 1 with the reason on stderr", async () => {
    const err: string[] = [];
    const io = { stdout: { write: () => {} }, stderr: { write: (t: string) => err.push(t) } };
    const command = parseCardLimitsArgs(["--platform", platform, "--max-live-cards", "1"], {});
    expect(await runCardLimitsCommand(server.deps, command, io)).toBe(1);
    expect(err.join("")).toMatch(/^paysvc card-limits: no platform Platform:/);
  });
});

describe("paysvc card-limits (the bin, spawned)", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await migratedDataDir("paysvc-card-limits");
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  /** Runs `paysvc` on the embedded database in `dataDir` (never DATABASE_URL). */
  const paysvc = (args: string[]) => runPaysvc(args, { env: { LOG_LEVEL: "silent" } });

  test("create-platform, then card-limits on its data directory -> exit 0 with the limits", async () => {
    const created = await paysvc(["create-platform", "--data-dir", dataDir, "--name", "Limits"]);
    expect(created.code, created.stderr).toBe(0);
    const platformId = (JSON.parse(created.stdout) as { platform: { id: string } }).platform.id;
    const args = ["card-limits", "--data-dir", dataDir, "--platform", platformId, "--max-live-cards", "3"];
    const result = await paysvc([...args, "--per-cardholder", "1"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ platformId, maxLiveCards: 3, maxLiveCardsPerCardholder: 1 });
  }, 60_000);

  test("invalid arguments: exit 1 with one readable message and the usage", async () => {
    const result = await paysvc(["card-limits", "--platform", "Platform:x"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^paysvc: invalid card-limits arguments: --max-live-cards required/);
    expect(result.stderr).toContain("usage: paysvc card-limits");
  }, 30_000);
});
