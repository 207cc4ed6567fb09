import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { openPglite } from "../../src/core/db/pglite.js";
import { API_VERSION } from "../../src/core/http/version.js";
import { LocalKek, newMasterKeyText, parseMasterKey } from "../../src/core/secrets/local-kek.js";
import { secretsCensus } from "../../src/core/secrets/reseal.js";
import { SecretBox } from "../../src/core/secrets/secret-box.js";
import { type Credentials, TestClient } from "../harness.js";
import { startOn, stop } from "../operator/process-helpers.js";
import { type PaysvcProcess, runPaysvc, spawnPaysvc } from "../paysvc-process.js";
import { eventually, type Jwks, verifySignature } from "../webhooks/helpers.js";
import { type Receiver, startReceiver } from "../webhooks/receiver.js";
import { exportMnemonic, filesUnder, findNeedles, loggedInWallet, plaintextSecrets } from "./helpers.js";

// Issue 16 item 4, spawned `paysvc` on an embedded data directory (spawned processes never get
// DATABASE_URL): where the master key comes from, what the files hold, and `rotate-master-key`.

const dirs: string[] = [];
const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freshDir(): Promise<{ parent: string; dataDir: string }> {
  const parent = await mkdtemp(join(tmpdir(), "paysvc-secrets-"));
  dirs.push(parent);
  return { parent, dataDir: join(parent, "data") };
}

/** No key from the environment the tests run in. */
const noKey = {
  LOG_LEVEL: "silent",
  PAYSVC_MASTER_KEY: "",
  PAYSVC_MASTER_KEY_FILE: "",
  PAYSVC_PREVIOUS_MASTER_KEYS: "",
};

describe("the master key comes from configuration (issue 16 item 4)", () => {
  test("a production start without a master key, or with a malformed one, refuses with a clear message and creates nothing", async () => {
    const { dataDir } = await freshDir();
    const args = ["start", "--mode", "production", "--port", "0", "--data-dir", dataDir];
    const missing = await runPaysvc(args, { env: noKey });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("production needs a master key kept outside the database");
    expect(missing.stderr).toContain("PAYSVC_MASTER_KEY");
    const malformed = "0123456789abcdef-not-a-key";
    const bad = await runPaysvc(args, { env: { ...noKey, PAYSVC_MASTER_KEY: malformed } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("PAYSVC_MASTER_KEY is not a master key");
    expect(bad.stderr).not.toContain(malformed);
    expect(`${missing.stdout}${bad.stdout}`).not.toContain("listening");
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  test("a production start takes its key from PAYSVC_MASTER_KEY_FILE and writes no key into the data directory", async () => {
    const { parent, dataDir } = await freshDir();
    const keyFile = join(parent, "paysvc.key");
    await writeFile(keyFile, `${newMasterKeyText()}\n`, { mode: 0o600 });
    const run = await spawnPaysvc(["start", "--mode", "production", "--port", "0", "--data-dir", dataDir], {
      env: { ...noKey, LOG_LEVEL: "warn", PAYSVC_MASTER_KEY_FILE: keyFile },
    });
    try {
      await run.waitFor(/paysvc production listening on/);
      expect(existsSync(join(dataDir, "master.key"))).toBe(false);
    } finally {
      await stop(run);
    }
  }, 120_000);
});

describe("an embedded sandbox data directory, from its first start to a rotation (issue 16 item 4)", () => {
  let dataDir = "";
  let keyText = "";
  let running: PaysvcProcess | undefined;
  let platform: Credentials;
  let wallet: Awaited<ReturnType<typeof loggedInWallet>>;
  let mnemonic = "";
  afterAll(async () => {
    if (running) await stop(running);
  });

  const clientOf = async (base: string) => {
    const saved = JSON.parse(await readFile(join(dataDir, "credentials.json"), "utf8")) as Credentials;
    platform = saved;
    return new TestClient(`${base}/${API_VERSION}`, saved);
  };
  const keyFile = () => join(dataDir, "master.key");

  /** A new receiver as the webhook endpoint: the TEST event it gets verifies under the platform's key set. */
  async function webhookVerifies(client: TestClient): Promise<void> {
    const receiver = await startReceiver();
    receivers.push(receiver);
    expect((await client.patch("/config", { webhookEndpoint: receiver.url })).status).toBe(200);
    await eventually(() => expect(receiver.received.length).toBe(1), 15_000);
    const delivered = receiver.received[0];
    if (!delivered) throw new Error("no delivery");
    const jwks = (await client.get<Jwks>("/webhooks/signing-keys")).body;
    const signature = String(delivered.headers["x-service-signature"]);
    expect(verifySignature(delivered.body, signature, jwks, new Date()).type).toBe("TEST");
  }

  test("the first start creates <data dir>/master.key, 0600, and the next start reuses it", async () => {
    ({ dataDir } = await freshDir());
    const first = await startOn(dataDir);
    running = first.run;
    expect((await stat(keyFile())).mode & 0o777).toBe(0o600);
    keyText = await readFile(keyFile(), "utf8");
    expect(keyText).toMatch(/^[0-9a-f]{64}\n$/);
    const client = await clientOf(first.base);
    wallet = await loggedInWallet(client);
    mnemonic = await exportMnemonic(client, wallet.accountId, wallet.sessionKey);
    await webhookVerifies(client);
    await stop(first.run);

    const second = await startOn(dataDir);
    running = second.run;
    expect(await readFile(keyFile(), "utf8")).toBe(keyText);
    expect(await exportMnemonic(await clientOf(second.base), wallet.accountId, wallet.sessionKey)).toBe(
      mnemonic,
    );
  }, 240_000);

  test("rotate-master-key refuses while a server holds the directory, and changes nothing", async () => {
    const refused = await runPaysvc(["rotate-master-key", "--data-dir", dataDir], { env: noKey });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("in use by another paysvc process");
    expect(refused.stderr).toContain("nothing changed");
    expect(await readFile(keyFile(), "utf8")).toBe(keyText);
    if (running) await stop(running);
    running = undefined;
  }, 120_000);

  test("no file under the data directory holds the seed, the mnemonic, the OTP keys, the bundle-signing key or a webhook private key in clear", async () => {
    const db = await openPglite({ dataDir: join(dataDir, "db") });
    let needles: Awaited<ReturnType<typeof plaintextSecrets>>;
    let sealedSeed = "";
    try {
      const box = new SecretBox(new LocalKek(parseMasterKey(keyText, "master.key")));
      needles = await plaintextSecrets(db, box, {
        accountId: wallet.accountId,
        emailOtpId: wallet.emailOtp.id,
        platformId: platform.platformId,
        mnemonic,
      });
      const [seed] = await db.query<{ entropy: string }>(
        "SELECT entropy FROM embedded_wallet_seeds WHERE account_id = $1",
        [wallet.accountId],
      );
      sealedSeed = seed?.entropy ?? "";
    } finally {
      await db.close();
    }
    const files = await filesUnder(dataDir);
    // The scan reads what the database wrote: the sealed seed is in its files.
    expect(findNeedles(new Map([["sealed seed", [Buffer.from(sealedSeed)]]]), files).length).toBeGreaterThan(
      0,
    );
    expect(needles.size).toBeGreaterThanOrEqual(6);
    expect(findNeedles(needles, files)).toEqual([]);
  }, 120_000);

  test("rotate-master-key replaces master.key and seals every value under it; the restarted service exports the same mnemonic and signs webhooks that verify", async () => {
    const rotated = await runPaysvc(["rotate-master-key", "--data-dir", dataDir], { env: noKey });
    expect(rotated.code, rotated.stderr).toBe(0);
    const [, keyId] = /again under master key (local-[0-9a-f]{16})/.exec(rotated.stdout) ?? [];
    const newText = await readFile(keyFile(), "utf8");
    expect(newText).toMatch(/^[0-9a-f]{64}\n$/);
    expect(newText).not.toBe(keyText);
    expect((await stat(keyFile())).mode & 0o777).toBe(0o600);
    expect(new LocalKek(parseMasterKey(newText, "master.key")).id).toBe(keyId);
    const db = await openPglite({ dataDir: join(dataDir, "db") });
    try {
      const census = await secretsCensus(db);
      expect(census.length).toBeGreaterThanOrEqual(5);
      expect(census.filter((entry) => entry.keyId !== keyId)).toEqual([]);
    } finally {
      await db.close();
    }

    const third = await startOn(dataDir);
    running = third.run;
    const client = await clientOf(third.base);
    expect(await exportMnemonic(client, wallet.accountId, wallet.sessionKey)).toBe(mnemonic);
    await webhookVerifies(client);
  }, 240_000);

  test("operator commands that write the directory themselves seal under its master key, never a throwaway one", async () => {
    if (running) await stop(running);
    running = undefined;
    const created = await runPaysvc(["create-platform", "--data-dir", dataDir, "--name", "Direct"], {
      env: noKey,
    });
    expect(created.code, created.stderr).toBe(0);
    const rotated = await runPaysvc(
      ["rotate-webhook-key", "--data-dir", dataDir, "--platform", platform.platformId],
      { env: noKey },
    );
    expect(rotated.code, rotated.stderr).toBe(0);
    const keyId = new LocalKek(parseMasterKey(await readFile(keyFile(), "utf8"), "master.key")).id;
    const db = await openPglite({ dataDir: join(dataDir, "db") });
    try {
      const census = await secretsCensus(db);
      expect(census.filter((entry) => entry.keyId !== keyId)).toEqual([]);
      expect(census.find((entry) => entry.label === "webhook signing key")?.count).toBeGreaterThanOrEqual(3);
    } finally {
      await db.close();
    }
  }, 120_000);
});
