import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { JobRunner } from "../../src/core/jobs/jobs.js";
import { LocalKek } from "../../src/core/secrets/local-kek.js";
import { useProcessSecrets } from "../../src/core/secrets/process-box.js";
import { secretsCensus } from "../../src/core/secrets/reseal.js";
import { rotateMasterKey } from "../../src/core/secrets/rotate.js";
import { SealedValueError, SecretBox } from "../../src/core/secrets/secret-box.js";
import { jobHandlers } from "../../src/jobs.js";
import { startServer, TestClient, type TestServer } from "../harness.js";
import { otpLogin } from "../wallet-auth/client.js";
import {
  eventually,
  type Jwks,
  platformWithReceiver,
  produce,
  verifySignature,
} from "../webhooks/helpers.js";
import type { Receiver } from "../webhooks/receiver.js";
import { serveApp, testMasterKey, testSecrets } from "../worker-app.js";
import { exportMnemonic, loggedInWallet } from "./helpers.js";

// Issue 16 item 4, both databases: `paysvc rotate-master-key` on a configured key (core/secrets/rotate.ts)
// seals every value again under the new key. A database of this file's own: a rotation touches every row.

let server: TestServer;
const receivers: Receiver[] = [];
beforeAll(async () => {
  server = await startServer({ ownDatabase: true });
});
afterAll(async () => {
  useProcessSecrets(testSecrets);
  await Promise.all(receivers.map((r) => r.close()));
  await server?.close();
});

describe("rotate-master-key (issue 16 item 4)", () => {
  test("refuses, changing nothing, while values are sealed under a key it was not given", async () => {
    await loggedInWallet(server.client);
    const before = await secretsCensus(server.db);
    await expect(rotateMasterKey(server.db, { kind: "configured", keys: [randomBytes(32)] })).rejects.toThrow(
      /sealed under master key local-[0-9a-f]{16}, which is not configured/,
    );
    expect(await secretsCensus(server.db)).toEqual(before);
  });

  test("seals every value again under the new key; with the old key gone the service still exports the same mnemonic, logs in by OTP and signs webhooks that verify", async () => {
    const { platform, client, receiver } = await platformWithReceiver(server);
    receivers.push(receiver);
    const wallet = await loggedInWallet(client);
    const mnemonic = await exportMnemonic(client, wallet.accountId, wallet.sessionKey);

    const newKey = randomBytes(32);
    const newId = new LocalKek(newKey).id;
    const rotation = await rotateMasterKey(server.db, { kind: "configured", keys: [newKey, testMasterKey] });
    expect(rotation.keyId).toBe(newId);
    for (const label of [
      "wallet seed",
      "OTP target key",
      "OTP code key",
      "bundle-signing key",
      "webhook signing key",
    ])
      expect(rotation.resealed[label], label).toBeGreaterThan(0);
    const census = await secretsCensus(server.db);
    expect(census.length).toBeGreaterThanOrEqual(5);
    expect(census.filter((entry) => entry.keyId !== newId)).toEqual([]);
    const [seed] = await server.db.query<{ entropy: string }>(
      "SELECT entropy FROM embedded_wallet_seeds WHERE account_id = $1",
      [wallet.accountId],
    );
    await expect(testSecrets.open("wallet-seed", wallet.accountId, seed?.entropy)).rejects.toThrow(
      SealedValueError,
    );

    // The service restarted with the new key alone.
    const rotated = new SecretBox(new LocalKek(newKey));
    useProcessSecrets(rotated);
    await server.jobs.stop();
    const deps = { ...server.deps, secrets: rotated };
    const served = await serveApp(deps);
    const jobs = new JobRunner(deps, jobHandlers(), { pollMs: 50, platformIds: server.platformIds });
    jobs.start();
    try {
      const after = new TestClient(served.baseUrl, platform);
      expect(await exportMnemonic(after, wallet.accountId, wallet.sessionKey)).toBe(mnemonic);
      const { key } = await otpLogin(after, wallet.emailOtp.id);
      expect(await exportMnemonic(after, wallet.accountId, key)).toBe(mnemonic);
      await produce(server, platform.platformId);
      await eventually(() => expect(receiver.received.length).toBe(1));
      const delivered = receiver.received[0];
      if (!delivered) throw new Error("no delivery");
      const jwks = (await after.get<Jwks>("/webhooks/signing-keys")).body;
      const event = verifySignature(
        delivered.body,
        String(delivered.headers["x-service-signature"]),
        jwks,
        new Date(),
      );
      expect(event.type).toBe("CARD.STATUS_CHANGE");
    } finally {
      await jobs.stop();
      await served.app.close();
    }
  });
});
