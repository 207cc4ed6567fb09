import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { Db } from "../../src/core/db/db.js";
import { loadMigrations, migrate } from "../../src/core/db/migrate.js";
import { openPglite } from "../../src/core/db/pglite.js";
import { savepointDb } from "../../src/core/db/savepoint.js";
import { deferUntilCommit, sendWithCommit, together } from "../../src/core/db/scope.js";
import { openTestDb } from "../test-db.js";

let db: Db;
beforeAll(async () => {
  db = await openTestDb(inject("dbTemplate"));
  await db.query("CREATE TABLE counters (id text PRIMARY KEY, value int8 NOT NULL)");
});
afterAll(() => db.close());

describe("migrations", () => {
  test("applying the migrations again is a no-op", async () => {
    const before = await db.query("SELECT name, sha256, applied_at FROM paysvc_migrations ORDER BY name");
    expect(before.length).toBe((await loadMigrations()).length);
    expect(await migrate(db)).toEqual([]);
    expect(await db.query("SELECT name, sha256, applied_at FROM paysvc_migrations ORDER BY name")).toEqual(
      before,
    );
  });

  test("a recorded migration whose file changed is refused (forward-only)", async () => {
    const [first, ...rest] = await loadMigrations();
    if (!first) throw new Error("no migrations");
    const edited = { ...first, sql: `${first.sql}\n-- edited`, sha256: "different" };
    await expect(migrate(db, [edited, ...rest])).rejects.toThrow(/changed after it was applied/);
  });

  test("the migrations are drizzle-kit's generated SQL, listed in its journal", async () => {
    const migrations = await loadMigrations();
    expect(migrations.map((m) => m.name)[0]).toBe("0000_core");
    for (const m of migrations)
      expect(m.sql).toMatch(/CREATE TABLE|ALTER TABLE|CREATE INDEX|UPDATE |INSERT INTO /);
  });

  test("0007 backfills each existing change's running count in (effectiveAt, id) order", async () => {
    const fresh = await openPglite();
    try {
      const all = await loadMigrations();
      const upTo = all.findIndex((m) => m.name.startsWith("0007_"));
      await migrate(fresh, all.slice(0, upTo));
      await fresh.query(
        "INSERT INTO platforms (id, name, environment, supported_currencies, created_at, updated_at) VALUES ('P', 'p', 'SANDBOX', '{USD}', now(), now())",
      );
      await fresh.query(
        `INSERT INTO internal_accounts (id, platform_id, type, status, currency, created_at, updated_at)
         VALUES ('A', 'P', 'INTERNAL_FIAT', 'ACTIVE', 'USD', now(), now()), ('B', 'P', 'INTERNAL_FIAT', 'ACTIVE', 'USD', now(), now())`,
      );
      await fresh.query(
        `INSERT INTO balance_changes (id, platform_id, account_id, transaction_id, amount, fee, effective_at, recorded_at, balance_after)
         VALUES ('b2', 'P', 'A', 'T', 1, 0, '2026-01-02', now(), 2), ('b1', 'P', 'A', 'T', 1, 0, '2026-01-01', now(), 1),
                ('c1', 'P', 'B', 'T', 5, 0, '2026-01-03', now(), 5)`,
      );
      await migrate(fresh, all);
      expect(await fresh.query("SELECT id, count_after FROM balance_changes ORDER BY id")).toEqual([
        { id: "b1", count_after: 1 },
        { id: "b2", count_after: 2 },
        { id: "c1", count_after: 1 },
      ]);
    } finally {
      await fresh.close();
    }
  });
});

describe("db API: query and transaction", () => {
  test("int8 columns come back as exact JavaScript numbers on both drivers", async () => {
    const [row] = await db.query<{ big: unknown; sum: unknown }>(
      "SELECT 9000000000000000::int8 AS big, sum(x)::int8 AS sum FROM (VALUES (1), (2)) v(x)",
    );
    expect(row).toEqual({ big: 9_000_000_000_000_000, sum: 3 });
  });

  test("db.query or db.transaction inside a transaction callback fails at once (use tx), and nothing is written", async () => {
    const id = `scope-${crypto.randomUUID()}`;
    const inner = db.transaction(async (tx) => {
      await tx.query("INSERT INTO counters (id, value) VALUES ($1, 1)", [id]);
      await db.query("SELECT 1");
    });
    await expect(inner).rejects.toThrow("use the transaction's tx instead");
    const nested = db.transaction(async () => db.transaction(async () => undefined));
    await expect(nested).rejects.toThrow("use the transaction's tx instead");
    expect(await db.query("SELECT * FROM counters WHERE id = $1", [id])).toEqual([]);
    // After the callback the handle works again.
    expect(await db.query<{ one: number }>("SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  test("work deferred to the commit runs last inside the transaction, once per key, and throwing there rolls it all back", async () => {
    const id = `defer-${crypto.randomUUID()}`;
    const order: string[] = [];
    await db.transaction(async (tx) => {
      const key = {};
      const bump = async () => {
        order.push("deferred");
        await tx.query("UPDATE counters SET value = value + 10 WHERE id = $1", [id]);
      };
      expect(deferUntilCommit(key, bump)).toBe(true);
      expect(deferUntilCommit(key, bump)).toBe(true);
      await tx.query("INSERT INTO counters (id, value) VALUES ($1, 1)", [id]);
      order.push("body");
    });
    expect(order).toEqual(["body", "deferred"]);
    expect(await db.query("SELECT value FROM counters WHERE id = $1", [id])).toEqual([{ value: 11 }]);
    const refused = db.transaction(async (tx) => {
      await tx.query("UPDATE counters SET value = 0 WHERE id = $1", [id]);
      deferUntilCommit({}, async () => {
        throw new Error("refused at commit");
      });
    });
    await expect(refused).rejects.toThrow("refused at commit");
    expect(await db.query("SELECT value FROM counters WHERE id = $1", [id])).toEqual([{ value: 11 }]);
    expect(deferUntilCommit({}, async () => undefined)).toBe(false);
  });

  test("a statement sent with the commit is committed with the rest of the transaction, after the deferred work", async () => {
    const id = `with-commit-${Math.random()}`;
    await db.transaction(async (tx) => {
      await sendWithCommit(tx, "UPDATE counters SET value = value * 2 WHERE id = $1", [id]);
      deferUntilCommit({}, async () => {
        await tx.query("UPDATE counters SET value = value + 1 WHERE id = $1", [id]);
      });
      await tx.query("INSERT INTO counters (id, value) VALUES ($1, 5)", [id]);
    });
    expect(await db.query("SELECT value FROM counters WHERE id = $1", [id])).toEqual([{ value: 12 }]);
  });

  test("a statement sent with the commit that fails rolls the whole transaction back and its error is thrown", async () => {
    const id = `with-commit-failing-${Math.random()}`;
    const failing = db.transaction(async (tx) => {
      await tx.query("INSERT INTO counters (id, value) VALUES ($1, 1)", [id]);
      await sendWithCommit(tx, "INSERT INTO counters (id, value) VALUES ($1, 2)", [id]);
    });
    await expect(failing).rejects.toMatchObject({ code: "23505" });
    expect(await db.query("SELECT * FROM counters WHERE id = $1", [id])).toEqual([]);
    // The connection is usable afterwards: the next transaction commits normally.
    await db.transaction((tx) => tx.query("INSERT INTO counters (id, value) VALUES ($1, 3)", [id]));
    expect(await db.query("SELECT value FROM counters WHERE id = $1", [id])).toEqual([{ value: 3 }]);
  });

  test("a parameter the driver cannot send fails the transaction before anything is committed", async () => {
    const id = `with-commit-unsendable-${Math.random()}`;
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const failing = db.transaction(async (tx) => {
      await tx.query("INSERT INTO counters (id, value) VALUES ($1, 1)", [id]);
      await sendWithCommit(tx, "SELECT $1::jsonb", [circular]);
    });
    await expect(failing).rejects.toThrow();
    expect(await db.query("SELECT * FROM counters WHERE id = $1", [id])).toEqual([]);
  });

  test("a savepoint step that fails leaves nothing behind, not even the work it deferred to the outer commit", async () => {
    const kept = `savepoint-kept-${Math.random()}`;
    const dropped = `savepoint-dropped-${Math.random()}`;
    await db.transaction(async (tx) => {
      const steps = savepointDb(db, tx);
      await steps.transaction(async (step) => {
        await step.query("INSERT INTO counters (id, value) VALUES ($1, 1)", [kept]);
        deferUntilCommit({}, () =>
          step.query("UPDATE counters SET value = 2 WHERE id = $1", [kept]).then(() => undefined),
        );
        await sendWithCommit(step, "UPDATE counters SET value = value * 10 WHERE id = $1", [kept]);
      });
      const failing = steps.transaction(async (step) => {
        await step.query("INSERT INTO counters (id, value) VALUES ($1, 1)", [dropped]);
        deferUntilCommit({}, () =>
          step
            .query("INSERT INTO counters (id, value) VALUES ($1, 7)", [`${dropped}-deferred`])
            .then(() => undefined),
        );
        await sendWithCommit(step, "INSERT INTO counters (id, value) VALUES ($1, 8)", [
          `${dropped}-with-commit`,
        ]);
        throw new Error("row refused");
      });
      await expect(failing).rejects.toThrow("row refused");
    });
    expect(await db.query("SELECT value FROM counters WHERE id = $1", [kept])).toEqual([{ value: 20 }]);
    const leftovers = await db.query("SELECT id FROM counters WHERE id LIKE $1", [`${dropped}%`]);
    expect(leftovers).toEqual([]);
  });

  test("steps issued together answer in order; a failure is the first in argument order, thrown once all have settled", async () => {
    const id = `together-${Math.random()}`;
    const [inserted, counted] = await db.transaction((tx) =>
      together(
        tx.query("INSERT INTO counters (id, value) VALUES ($1, 1) RETURNING value", [id]),
        tx.query<{ n: number }>("SELECT count(*)::int8 AS n FROM counters WHERE id = $1", [id]),
      ),
    );
    expect(inserted).toEqual([{ value: 1 }]);
    expect(counted).toEqual([{ n: 1 }]);
    let lateStepFinished = false;
    const failing = db.transaction((tx) =>
      together(
        (async () => {
          await tx.query("SELECT 1");
          await tx.query("UPDATE counters SET value = 2 WHERE id = $1", [id]);
          lateStepFinished = true;
        })(),
        Promise.reject(new Error("second step refused")),
        Promise.reject(new Error("third step refused")),
      ),
    );
    await expect(failing).rejects.toThrow("second step refused");
    expect(lateStepFinished).toBe(true);
    expect(await db.query("SELECT value FROM counters WHERE id = $1", [id])).toEqual([{ value: 1 }]);
  });

  test("a statement issued after its transaction ended fails instead of reaching the connection's next user", async () => {
    let leaked: Parameters<Parameters<Db["transaction"]>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(async () => leaked?.query("SELECT 1")).rejects.toThrow(/after its transaction ended/);
  });

  test("a transaction that throws leaves nothing written", async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO counters VALUES ('rollback', 1)");
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await db.query("SELECT * FROM counters WHERE id = 'rollback'")).toEqual([]);
  });

  test("a transaction is retried on serialization failure (SQLSTATE 40001) and commits once", async () => {
    let attempts = 0;
    await db.transaction(async (tx) => {
      attempts++;
      await tx.query(
        "INSERT INTO counters VALUES ('retry', $1) ON CONFLICT (id) DO UPDATE SET value = counters.value + 1",
        [attempts],
      );
      if (attempts < 3) throw Object.assign(new Error("could not serialize access"), { code: "40001" });
    });
    expect(attempts).toBe(3);
    expect(await db.query("SELECT value FROM counters WHERE id = 'retry'")).toEqual([{ value: 3 }]);
  });

  test("row locks (SELECT … FOR UPDATE) make concurrent read-modify-write transactions lose no update", async () => {
    await db.query("INSERT INTO counters VALUES ('locked', 0)");
    await Promise.all(
      Array.from({ length: 25 }, () =>
        db.transaction(async (tx) => {
          const [row] = await tx.query<{ value: number }>(
            "SELECT value FROM counters WHERE id = 'locked' FOR UPDATE",
          );
          await tx.query("UPDATE counters SET value = $1 WHERE id = 'locked'", [(row?.value ?? 0) + 1]);
        }),
      ),
    );
    expect(await db.query("SELECT value FROM counters WHERE id = 'locked'")).toEqual([{ value: 25 }]);
  });

  test("concurrent serializable transactions that conflict are retried until both commit", async () => {
    await db.query("INSERT INTO counters VALUES ('serial', 0)");
    await Promise.all(
      Array.from({ length: 6 }, () =>
        db.transaction(
          async (tx) => {
            const [row] = await tx.query<{ value: number }>("SELECT value FROM counters WHERE id = 'serial'");
            await tx.query("UPDATE counters SET value = $1 WHERE id = 'serial'", [(row?.value ?? 0) + 1]);
          },
          { isolation: "serializable", maxAttempts: 20 },
        ),
      ),
    );
    expect(await db.query("SELECT value FROM counters WHERE id = 'serial'")).toEqual([{ value: 6 }]);
  });
});

describe("layering", () => {
  test("nothing outside core/db imports a database driver", () => {
    const src = fileURLToPath(new URL("../../src/", import.meta.url));
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith(".ts") && !path.includes(`${join("core", "db")}`)) {
          const text = readFileSync(path, "utf8");
          if (/from "(pg|@electric-sql\/pglite)"/.test(text)) offenders.push(path);
        }
      }
    };
    walk(src);
    expect(offenders).toEqual([]);
  });
});
