import { once } from "node:events";
import { readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TRIGGERS } from "../../src/cli/trigger.js";
import {
  migratedDataDir,
  type PaysvcProcess,
  paysvcBuilt,
  runPaysvc,
  spawnPaysvc,
} from "../paysvc-process.js";

// The compiled bin is built in the background when the sources changed: not on a test's clock.
beforeAll(() => paysvcBuilt(), 300_000);

interface Received {
  type: string;
  id: string;
  body: string;
  signature: string | undefined;
}

/** The platform's own receiver, behind `paysvc listen`: records each request, answers `status`. */
class Receiver {
  readonly received: Received[] = [];
  status = 200;
  readonly server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const event = JSON.parse(body) as { type: string; id: string };
      const signature = request.headers["x-service-signature"];
      this.received.push({
        type: event.type,
        id: event.id,
        body,
        signature: signature as string | undefined,
      });
      response.writeHead(this.status).end();
    });
  });
  url = "";
  async start(): Promise<void> {
    this.server.listen(0, "127.0.0.1");
    await once(this.server, "listening");
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
}

describe("paysvc listen and paysvc trigger", () => {
  let dataDir: string;
  let server: PaysvcProcess;
  let base: string;
  let authorization: string;
  const receiver = new Receiver();
  let listen: PaysvcProcess;
  beforeAll(async () => {
    dataDir = await migratedDataDir("paysvc-listen");
    server = await spawnPaysvc(["start", "--port", "0", "--data-dir", dataDir], {
      env: { LOG_LEVEL: "warn" },
    });
    [, base = ""] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+\/2025-10-13)\n/);
    await server.waitFor(/API token id /);
    const saved = JSON.parse(await readFile(join(dataDir, "credentials.json"), "utf8"));
    authorization = `Basic ${Buffer.from(`${saved.clientId}:${saved.clientSecret}`).toString("base64")}`;
    await receiver.start();
    listen = await spawnPaysvc(["listen", "--data-dir", dataDir, "--forward-to", receiver.url]);
    await listen.waitFor(/paysvc listen: forwarding events to /);
  }, 300_000);
  afterAll(async () => {
    for (const run of [listen, server]) {
      if (run && run.child.exitCode === null && run.child.signalCode === null) {
        const exited = once(run.child, "exit");
        run.child.kill("SIGTERM");
        await exited;
      }
    }
    receiver.server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const api = async <T>(path: string) =>
    (await (await fetch(`${base}${path}`, { headers: { authorization } })).json()) as T;

  test("listen prints each event's type, payload and the receiver's status, and forwards it signed with its exact body", async () => {
    // Setting the endpoint sends one TEST event (PATCH /config): it arrives through listen.
    const [, id = ""] = await listen.waitFor(/ TEST (Webhook:\S+)\n/);
    await listen.waitFor(
      new RegExp(`"id": "${id}",\\n  "type": "TEST",[\\s\\S]*?\\n}\\n  -> 200 from ${receiver.url}\\n`),
    );
    const test = receiver.received.find((r) => r.id === id);
    expect(test?.signature).toEqual(expect.any(String));
    expect(JSON.parse(test?.body ?? "")).toMatchObject({ id, type: "TEST" });
  }, 30_000);

  test.each(Object.keys(TRIGGERS).map((type) => [type]))(
    "trigger %s runs the sandbox simulation that produces it",
    async (type) => {
      const before = new Set(
        (
          await api<{ data: { eventId: string }[] }>("/webhooks/deliveries?limit=100&sortOrder=desc")
        ).data.map((d) => d.eventId),
      );
      const result = await runPaysvc(["trigger", type, "--data-dir", dataDir]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`triggered ${type}\n`);
      // The event is written with the change that causes it: it is in the delivery log when trigger exits.
      const after = await api<{ data: { eventId: string; eventType: string }[] }>(
        "/webhooks/deliveries?limit=100&sortOrder=desc",
      );
      const produced = after.data.filter((d) => !before.has(d.eventId)).map((d) => d.eventType);
      expect(produced).toContain(type);
      // And listen prints it once it is delivered.
      const { eventId } = after.data.find((d) => !before.has(d.eventId) && d.eventType === type) ?? {};
      await listen.waitFor(new RegExp(` ${type.replace(".", "\\.")} ${eventId}\\n`));
    },
    60_000,
  );

  test("listen answers paysvc with the receiver's status, so a failing receiver's deliveries fail and are retried", async () => {
    // Posted to listen's own address as paysvc would: the answer is the receiver's.
    const [, endpoint = ""] = await listen.waitFor(/webhook endpoint set to (http:\/\/127\.0\.0\.1:\d+\/);/);
    const body = JSON.stringify({
      id: "Webhook:listen-500",
      type: "TEST",
      timestamp: new Date().toISOString(),
      data: {},
    });
    receiver.status = 500;
    try {
      const answer = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      expect(answer.status).toBe(500);
    } finally {
      receiver.status = 200;
    }
    await listen.waitFor(
      new RegExp(`TEST Webhook:listen-500\\n[\\s\\S]*?\\n  -> 500 from ${receiver.url}\\n`),
    );
    expect(receiver.received.find((r) => r.id === "Webhook:listen-500")?.body).toBe(body);
  }, 30_000);

  test("an event type no simulation produces: exit 1, naming the ones that exist", async () => {
    const result = await runPaysvc(["trigger", "BULK_UPLOAD.FAILED", "--data-dir", dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `paysvc trigger: no sandbox simulation produces BULK_UPLOAD.FAILED yet; paysvc trigger --help lists the ones it can produce: ${Object.keys(TRIGGERS).join(", ")}\n`,
    );
  }, 30_000);

  test("a name that is no event type: exit 1, saying so", async () => {
    const result = await runPaysvc(["trigger", "CARD.EXPLODED", "--data-dir", dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^paysvc trigger: CARD\.EXPLODED is not an event type; /);
  }, 30_000);

  test("trigger --help lists every event type a simulation produces, and the others as refused", async () => {
    const result = await runPaysvc(["trigger", "--help"]);
    expect(result.code).toBe(0);
    for (const type of Object.keys(TRIGGERS)) expect(result.stdout).toContain(`\n  ${type}\n      `);
    expect(result.stdout).toMatch(
      /No sandbox simulation produces these yet \(refused\):\n {2}\S[\s\S]*BULK_UPLOAD\.FAILED/,
    );
  }, 30_000);

  test("listen puts the previous webhook endpoint back when it is stopped", async () => {
    const during = await api<{ webhookEndpoint: string | null }>("/config");
    expect(during.webhookEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const exited = once(listen.child, "exit");
    listen.child.kill("SIGTERM");
    expect((await exited)[0]).toBe(0);
    expect(listen.output()).toContain("paysvc listen: webhook endpoint put back to none\n");
    expect((await api<{ webhookEndpoint: string | null }>("/config")).webhookEndpoint).toBeNull();
  }, 30_000);
});
