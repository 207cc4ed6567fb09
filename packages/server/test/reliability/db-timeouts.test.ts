import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { createScratchDatabase } from "../../bench/webhooks.js";
import type { Db } from "../../src/core/db/db.js";
import { openPglite } from "../../src/core/db/pglite.js";
import {
  DEFAULT_POOL_SIZE,
  openPostgres,
  postgresPoolSizeFrom,
  postgresTimeoutsFrom,
} from "../../src/core/db/postgres.js";
import { registerHealth } from "../../src/core/http/health.js";
import { frozenProxy } from "./frozen-proxy.js";

// Issue 16 item 6: a database that stops answering makes calls fail in bounded time, never wedges the
// service, and /readyz says so. On PostgreSQL the network to it freezes (a proxy that holds every byte);
// on the embedded database its one session is held by a transaction that does not end.

const template = inject("dbTemplate");

/** /readyz of an app over `db`, with a short readiness bound. */
async function readiness(db: Db) {
  const app = Fastify();
  registerHealth(app, db, 300);
  const res = await app.inject({ method: "GET", url: "/readyz" });
  await app.close();
  return { status: res.statusCode, body: res.json() };
}

describe("database timeouts (conventions: every answer in the catalogue, never a hang)", () => {
  test("PAYSVC_DB_* timeouts are read, bounded, and the client-side limit follows the statement timeout", () => {
    expect(
      postgresTimeoutsFrom({ PAYSVC_DB_STATEMENT_TIMEOUT_MS: "1000", PAYSVC_DB_CONNECT_TIMEOUT_MS: "500" }),
    ).toEqual({
      connectMs: 500,
      statementMs: 1000,
      idleInTransactionMs: 60_000,
      queryMs: 6000,
    });
    expect(() => postgresTimeoutsFrom({ PAYSVC_DB_STATEMENT_TIMEOUT_MS: "soon" })).toThrow(
      /PAYSVC_DB_STATEMENT_TIMEOUT_MS must be milliseconds/,
    );
  });

  test("PAYSVC_DB_POOL_SIZE sets the connections per process, 1 to 100, with one clear message otherwise", () => {
    expect(postgresPoolSizeFrom({})).toBe(DEFAULT_POOL_SIZE);
    expect(postgresPoolSizeFrom({ PAYSVC_DB_POOL_SIZE: "3" })).toBe(3);
    for (const bad of ["0", "101", "2.5", "many"])
      expect(() => postgresPoolSizeFrom({ PAYSVC_DB_POOL_SIZE: bad })).toThrow(
        `invalid configuration: PAYSVC_DB_POOL_SIZE must be a whole number from 1 to 100, not ${bad}`,
      );
  });

  if (template.kind === "postgres") {
    let scratch: { url: string; drop: () => Promise<void> };
    let proxy: Awaited<ReturnType<typeof frozenProxy>>;
    let db: Db;
    beforeAll(async () => {
      scratch = await createScratchDatabase(template.adminUrl, "paysvc_frozen", template.templateName);
      const url = new URL(scratch.url);
      proxy = await frozenProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.port = String(proxy.port);
      db = openPostgres(url.toString(), 2, {
        connectMs: 500,
        statementMs: 500,
        idleInTransactionMs: 1_000,
        queryMs: 800,
      });
    });
    afterAll(async () => {
      await db?.close().catch(() => undefined);
      await proxy?.close();
      await scratch?.drop();
    });

    test("a frozen connection fails the query and the transaction instead of hanging; /readyz reports the database down", async () => {
      expect(await db.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
      proxy.freeze();
      try {
        await expect(db.query("SELECT 1")).rejects.toThrow();
        await expect(db.transaction((tx) => tx.query("SELECT 1"))).rejects.toThrow();
        expect(await readiness(db)).toEqual({
          status: 503,
          body: { status: "unavailable", checks: { database: "down" } },
        });
      } finally {
        proxy.thaw();
      }
    }, 30_000);

    test("once the network thaws the pool serves again: nothing stays wedged", async () => {
      proxy.freeze();
      await expect(db.query("SELECT 1")).rejects.toThrow();
      proxy.thaw();
      expect(await db.query("SELECT 2 AS two")).toEqual([{ two: 2 }]);
      expect(await db.transaction((tx) => tx.query("SELECT 3 AS three"))).toEqual([{ three: 3 }]);
      expect((await readiness(db)).status).toBe(200);
    }, 30_000);
  } else {
    test("/readyz answers within its bound while the embedded database's one session is held, and recovers", async () => {
      const db = await openPglite();
      try {
        let release = () => {};
        const held = db.transaction(
          () =>
            new Promise<void>((resolve) => {
              release = resolve;
            }),
        );
        expect(await readiness(db)).toEqual({
          status: 503,
          body: { status: "unavailable", checks: { database: "down" } },
        });
        release();
        await held;
        expect(await readiness(db)).toEqual({
          status: 200,
          body: { status: "ready", checks: { database: "up" } },
        });
      } finally {
        await db.close();
      }
    }, 30_000);
  }
});
