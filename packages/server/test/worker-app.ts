import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { inject } from "vitest";
import { buildApp } from "../src/app.js";
import type { Db } from "../src/core/db/db.js";
import type { Deps } from "../src/core/deps.js";
import { API_VERSION } from "../src/core/http/version.js";
import { LocalKek } from "../src/core/secrets/local-kek.js";
import { useProcessSecrets } from "../src/core/secrets/process-box.js";
import { SecretBox } from "../src/core/secrets/secret-box.js";
import { openTestDb } from "./test-db.js";

/**
 * The master key of every test app of this worker, as one deployment has one: a new one per worker
 * process, whose database lives as long as it. Also the box of the code that takes no Deps
 * (core/secrets/process-box.ts).
 */
export const testMasterKey = randomBytes(32);
export const testSecrets = new SecretBox(new LocalKek(testMasterKey));
useProcessSecrets(testSecrets);

/** The real app listening on an ephemeral loopback port. */
export interface ServedApp {
  app: FastifyInstance;
  deps: Deps;
  /** Base URL including the version segment. */
  baseUrl: string;
  /** The server origin, without the version segment. */
  origin: string;
}

/** Builds the app over `deps` and listens on port 0. */
export async function serveApp(deps: Deps): Promise<ServedApp> {
  const app = await buildApp(deps);
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, deps, baseUrl: `${origin}/${API_VERSION}`, origin };
}

/*
 * One database and one default app per vitest worker (`isolate: false` keeps this module, and so these
 * promises, from one test file to the next in the same process). Each file is its own platform on them:
 * importing the app, loading a database and building Fastify happen once per worker, not once per file.
 * The app is never closed: it ends with the worker process; global-setup drops the worker databases.
 */
let workerDb: Promise<Db> | null = null;
const workerApps = new Map<string, Promise<ServedApp>>();

/** This worker's database, migrated from the run's template on first use. */
export function workerDatabase(): Promise<Db> {
  workerDb ??= openTestDb(inject("dbTemplate"));
  return workerDb;
}

/**
 * This worker's app for the settings named by `key`, built with `deps` on first use and shared by every
 * file asking for the same settings. Its deps are frozen: a test file that needs deps of its own (a clock
 * it moves, a logger, production mode) asks for an app of its own over the same database.
 */
export function sharedApp(key: string, deps: (db: Db) => Deps): Promise<ServedApp> {
  let app = workerApps.get(key);
  if (!app) {
    app = workerDatabase().then((db) => serveApp(Object.freeze(deps(db))));
    workerApps.set(key, app);
  }
  return app;
}
