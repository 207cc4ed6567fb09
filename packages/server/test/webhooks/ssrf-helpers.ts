import type { LookupAddress } from "node:dns";
import type { AddressInfo } from "node:net";
import { createServer, type LookupFunction, type Server } from "node:net";
import type { Deps } from "../../src/core/deps.js";
import type { Environment } from "../../src/core/http/context.js";
import { JobRunner } from "../../src/core/jobs/jobs.js";
import type { OutboundSettings } from "../../src/core/outbound/targets.js";
import { jobHandlers } from "../../src/jobs.js";
import { createPlatform } from "../../src/platform-config/platforms.js";
import { type Credentials, TestClient, type TestServer } from "../harness.js";
import { serveApp } from "../worker-app.js";

// Helpers of the SSRF tests (issue 16 item 2): an app of the file's own with its outbound settings
// (the allow-private-targets setting, a fake DNS), and a TCP listener that counts every connection,
// so "refused" means no socket was ever opened to it.

/** A real app over the worker's database whose deps carry `outbound`; its jobs run on demand only. */
export interface OutboundApp {
  deps: Deps;
  newPlatform(environment: Environment): Promise<{ credentials: Credentials; client: TestClient }>;
  /** Runs this app's due jobs (its platforms' webhook deliveries) now. */
  runJobs(): Promise<number>;
  close(): Promise<void>;
}

export async function startOutboundApp(server: TestServer, outbound: OutboundSettings): Promise<OutboundApp> {
  const deps: Deps = { ...server.deps, outbound };
  const served = await serveApp(deps);
  const platformIds = new Set<string>();
  const jobs = new JobRunner(deps, jobHandlers(), { pollMs: 50, platformIds });
  return {
    deps,
    async newPlatform(environment) {
      const created = await createPlatform(deps, { name: `ssrf ${environment.toLowerCase()}`, environment });
      platformIds.add(created.platform.id);
      const credentials = { platformId: created.platform.id, ...created.token, tokenId: created.token.id };
      return { credentials, client: new TestClient(served.baseUrl, credentials) };
    },
    runJobs: () => jobs.runDue(),
    close: async () => {
      await jobs.stop();
      await served.app.close();
    },
  };
}

/** A DNS stand-in: each name answers the given addresses; every question is recorded. */
export function fakeDns(answers: Record<string, string[]>): { lookup: LookupFunction; asked: string[] } {
  const asked: string[] = [];
  const lookup: LookupFunction = (hostname, options, callback) => {
    asked.push(hostname);
    const found: LookupAddress[] = (answers[hostname] ?? []).map((address) => ({
      address,
      family: address.includes(":") ? 6 : 4,
    }));
    const first = found[0];
    if (!first) {
      const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      return callback(error, "", 0);
    }
    if (options.all) return callback(null, found);
    callback(null, first.address, first.family);
  };
  return { lookup, asked };
}

/** A TCP listener on 127.0.0.1 that counts connections (and closes each at once). */
export async function connectionCounter(): Promise<{
  port: number;
  connections(): number;
  close(): Promise<void>;
}> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    connections: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type AttemptView = { statusCode: number | null; error: string | null };
export type DeliveryView = { id: string; state: string; attempts: AttemptView[] };

/** The platform's deliveries as GET /webhooks/deliveries shows them, and the raw text of that answer. */
export async function deliveries(client: TestClient): Promise<{ data: DeliveryView[]; text: string }> {
  const res = await client.get<{ data: DeliveryView[] }>("/webhooks/deliveries");
  return { data: res.body.data, text: res.text };
}
