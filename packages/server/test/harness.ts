import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import pino from "pino";
import { inject } from "vitest";
import { type Clock, systemClock } from "../src/core/clock.js";
import type { Db } from "../src/core/db/db.js";
import { DEFAULT_SETTLEMENT_LAG_MS, type Deps, type Mode, type WebhookTimeouts } from "../src/core/deps.js";
import type { Environment } from "../src/core/http/context.js";
import { logRedactPaths } from "../src/core/http/logging.js";
import { type JobHandler, JobRunner } from "../src/core/jobs/jobs.js";
import type { OtpSender } from "../src/core/otp-sender.js";
import { jobHandlers } from "../src/jobs.js";
import { defaultCurrencyConfig, type PlatformCurrencyConfig } from "../src/platform/currency-configs.js";
import { createPlatform } from "../src/platform-config/platforms.js";
import { signedRetryPerformers } from "../src/signed-retry-performers.js";
import { DEFAULT_WEBHOOK_TIMEOUTS } from "../src/webhooks/sender.js";
import { type OpenApiDocument, ResponseContract } from "./contract/response-contract.js";
import { withEndUserTerms } from "./customers/end-user-terms.js";
import { openTestDb } from "./test-db.js";
import { serveApp, sharedApp, testSecrets, workerDatabase } from "./worker-app.js";

export interface Credentials {
  platformId: string;
  tokenId: string;
  clientId: string;
  clientSecret: string;
}

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  auth?: Credentials | { clientId: string; clientSecret: string } | null;
  headers?: Record<string, string>;
  /** Sent as is (no JSON encoding, no content type unless given). */
  rawBody?: string;
}

/** An HTTP client for the running server: JSON in and out, Basic auth with the given credentials. */
export class TestClient {
  constructor(
    readonly baseUrl: string,
    readonly credentials: Credentials,
  ) {}

  as(credentials: Credentials): TestClient {
    return new TestClient(this.baseUrl, credentials);
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const auth = options.auth === undefined ? this.credentials : options.auth;
    if (auth) {
      headers.authorization = `Basic ${Buffer.from(`${auth.clientId}:${auth.clientSecret}`).toString("base64")}`;
    }
    let payload: string | undefined = options.rawBody;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers["content-type"] ??= "application/json";
    }
    // Paths are relative to the versioned base URL; absolute URLs (health, docs) pass through.
    const url = path.startsWith("http") ? path : `${this.baseUrl}${path}`;
    const response = await fetch(url, {
      method,
      headers,
      ...(payload !== undefined ? { body: payload } : {}),
    });
    const text = await response.text();
    await checkContract(this.baseUrl, method, url, response, text);
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = Record<string, unknown>>(path: string, options?: RequestOptions) {
    return this.request<T>("GET", path, undefined, options);
  }
  post<T = Record<string, unknown>>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>("POST", path, body, options);
  }
  patch<T = Record<string, unknown>>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>("PATCH", path, body, options);
  }
  delete<T = Record<string, unknown>>(path: string, options?: RequestOptions) {
    return this.request<T>("DELETE", path, undefined, options);
  }
}

/**
 * The response contract (issue 9 part 1): every response a TestClient receives must match the service's
 * OpenAPI document (test/contract/response-contract.ts); a mismatch fails the request's test.
 * One compiled contract per test file's process; `RESPONSE_CONTRACT=off` disables it when debugging.
 */
let contract: ResponseContract | null = null;
const contractOn = process.env.RESPONSE_CONTRACT !== "off";

function useContractFrom(doc: unknown): void {
  if (contractOn && !contract) contract = new ResponseContract(doc as OpenApiDocument);
}

async function checkContract(
  baseUrl: string,
  method: string,
  url: string,
  response: Response,
  text: string,
): Promise<void> {
  if (!contractOn) return;
  if (!contract) {
    const doc = await fetch(`${baseUrl}/openapi.json`);
    useContractFrom(await doc.json());
  }
  const path = url.startsWith(`${baseUrl}/`) || url === baseUrl ? url.slice(baseUrl.length) || "/" : null;
  const broken = contract?.check({
    method,
    path,
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    text,
  });
  if (broken) throw new Error(`response contract: ${broken}`);
}

export interface TestServer {
  app: FastifyInstance;
  deps: Deps;
  db: Db;
  /** Base URL including the version segment. */
  baseUrl: string;
  /** The server origin, without the version segment. */
  origin: string;
  platform: Credentials;
  client: TestClient;
  /**
   * This file's background job runner (polling every 50 ms); `jobs.runDue()` runs what is due now. It
   * runs only the jobs of the platforms in `platformIds`, so files sharing a database never run each
   * other's jobs.
   */
  jobs: JobRunner;
  /** The platforms this server created; a JobRunner a test builds takes them as its `platformIds`. */
  platformIds: ReadonlySet<string>;
  /** Creates another platform (tenant) with an all-permission token. */
  newPlatform(environment?: Environment): Promise<Credentials>;
  /** Stops this file's job runner, and closes the app and database only when they are this file's own. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Extra job handlers (tests of the runner itself). */
  jobHandlers?: Record<string, JobHandler>;
  /** A clock of the file's own (it may move it): the file gets an app of its own. */
  clock?: Clock;
  /**
   * The service clock stands still at this instant (platform clocks still move with
   * `/sandbox/clock/advance`). Files asking for the same serviceTime and settlementLagMs share one app.
   */
  serviceTime?: string;
  settlementLagMs?: number;
  mode?: Mode;
  logger?: FastifyBaseLogger;
  /** Webhook sender timeouts (tests of the timeout retry shorten them). */
  webhookTimeouts?: WebhookTimeouts;
  /** Regulatory threshold (USD cents) for payouts to wallets that are not ACTIVE; default in Deps. */
  walletVerificationThreshold?: number;
  /** Where production OTP codes go; default in Deps (a log line). */
  otpSender?: OtpSender;
  /** Apply the per-address failed-authentication limit to loopback (the limiter's own tests). */
  limitLoopbackAuthFailures?: boolean;
  /** Wraps the database the app and the job runner use (a test counting transaction retries). */
  wrapDb?: (db: Db) => Db;
  /**
   * A fresh database of this file's own, instead of the worker's shared one: only for tests that read
   * or break the whole database (row-hash snapshots of every table, closing the database).
   */
  ownDatabase?: boolean;
  /** UMA domains reached at another address (PAYSVC_UMA_DOMAINS): a test acting as an outside VASP. */
  umaDomains?: Record<string, string>;
}

/** Logs go nowhere unless TEST_LOG_LEVEL is set; tests that inspect logs pass their own logger. */
export function testLogger(stream?: NodeJS.WritableStream): FastifyBaseLogger {
  const options = {
    level: stream ? "info" : (process.env.TEST_LOG_LEVEL ?? "silent"),
    redact: { paths: logRedactPaths, censor: "[redacted]" },
  };
  return stream ? pino(options, stream) : pino(options);
}

function depsFor(db: Db, options: StartOptions): Deps {
  return {
    db,
    clock: options.clock ?? systemClock,
    logger: options.logger ?? testLogger(),
    mode: options.mode ?? "sandbox",
    settlementLagMs: options.settlementLagMs ?? DEFAULT_SETTLEMENT_LAG_MS,
    webhookTimeouts: options.webhookTimeouts ?? DEFAULT_WEBHOOK_TIMEOUTS,
    secrets: testSecrets,
    signedRetryPerformers,
    ...(options.walletVerificationThreshold === undefined
      ? {}
      : { walletVerificationThreshold: options.walletVerificationThreshold }),
    ...(options.otpSender === undefined ? {} : { otpSender: options.otpSender }),
    ...(options.limitLoopbackAuthFailures ? { limitLoopbackAuthFailures: true } : {}),
    ...(options.umaDomains ? { umaDomains: options.umaDomains } : {}),
  };
}

/**
 * The key of the worker's shared app for these options, or null when they need an app of the file's own
 * (a clock object the file may move, a logger, another mode…). Job handlers belong to the file's runner.
 */
function sharedAppKey(options: StartOptions): string | null {
  const { jobHandlers: _jobHandlers, serviceTime, settlementLagMs, ...own } = options;
  if (Object.values(own).some((value) => value !== undefined)) return null;
  return JSON.stringify({ serviceTime, settlementLagMs });
}

/** A service clock that stands still at `instant`: nothing can move it, so files can share it. */
function standingClock(instant: string): Clock {
  const at = Date.parse(instant);
  return { now: () => new Date(at) };
}

/**
 * The real app on an ephemeral port, with a new sandbox platform for this file. The app and database are
 * the worker's shared ones (test/worker-app.ts) unless the options change the deps (then a second app over
 * the same database) or ask for a database of the file's own.
 */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const opened = options.ownDatabase ? await openTestDb(inject("dbTemplate")) : await workerDatabase();
  const db = options.wrapDb ? options.wrapDb(opened) : opened;
  const key = sharedAppKey(options);
  const own = key === null;
  const { serviceTime, settlementLagMs } = options;
  const served = own
    ? await serveApp(depsFor(db, options))
    : await sharedApp(key, (shared) =>
        depsFor(shared, { settlementLagMs, ...(serviceTime ? { clock: standingClock(serviceTime) } : {}) }),
      );
  const { app, deps, baseUrl, origin } = served;
  const platformIds = new Set<string>();
  const jobs = new JobRunner(deps, { ...jobHandlers(), ...options.jobHandlers }, { pollMs: 50, platformIds });
  jobs.start();
  // The contract is compiled once per worker, from a sandbox app: a production app has no sandbox routes.
  if (deps.mode === "sandbox") useContractFrom(app.swagger());
  const newPlatform = async (environment: Environment = "SANDBOX"): Promise<Credentials> => {
    const created = await createPlatform(deps, { name: `test ${environment.toLowerCase()}`, environment });
    platformIds.add(created.platform.id);
    return { platformId: created.platform.id, ...created.token, tokenId: created.token.id };
  };
  const platform = await newPlatform();
  return {
    app,
    deps,
    db,
    baseUrl,
    origin,
    platform,
    client: new TestClient(baseUrl, platform),
    jobs,
    platformIds,
    newPlatform,
    close: async () => {
      await jobs.stop();
      if (own) await app.close();
      if (options.ownDatabase) await opened.close();
    },
  };
}

/** A new individual customer's USD INTERNAL_FIAT account (customers without an e-mail have only that one). */
export async function newUsdAccount(client: TestClient): Promise<string> {
  const customer = await client.post<{ id: string }>("/customers", {
    customerType: "INDIVIDUAL",
    ...withEndUserTerms,
  });
  const accounts = await client.get<{ data: { id: string }[] }>(
    `/customers/internal-accounts?customerId=${customer.body.id}&currency=USD&type=INTERNAL_FIAT`,
  );
  const id = accounts.body.data[0]?.id;
  if (!id) throw new Error(`customer ${customer.body.id} has no USD account`);
  return id;
}

/** A `PATCH /config supportedCurrencies` list: each code with the settings a platform starts with. */
export function currencySettings(...codes: string[]): PlatformCurrencyConfig[] {
  return codes.map(defaultCurrencyConfig);
}
