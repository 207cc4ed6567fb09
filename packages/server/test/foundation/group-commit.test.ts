import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Db, Tx } from "../../src/core/db/db.js";
import { claimRowsInBatch, groupCommitting } from "../../src/core/db/group-commit.js";
import { deferUntilCommit, withTransactionPreamble } from "../../src/core/db/scope.js";
import { sqlstate } from "../../src/core/db/sqlstate.js";
import { startServer, type TestServer } from "../harness.js";
import { balanceOf, fund, newAccount } from "../quotes/helpers.js";
import { workerDatabase } from "../worker-app.js";

// Group commit (issue 20): transactions marked `grouped` share one commit, each member under its own
// savepoint. Every member here writes a row of its own into this file's table, so what committed is read back.
let db: Db;
const table = `group_commit_${randomBytes(4).toString("hex")}`;
beforeAll(async () => {
  db = await workerDatabase();
  // The key is unique only at COMMIT (deferred): two members writing one key fail their batch's commit.
  await db.query(
    `CREATE TABLE ${table} (key text NOT NULL, txid text NOT NULL,
       CONSTRAINT ${table}_key UNIQUE (key) DEFERRABLE INITIALLY DEFERRED)`,
  );
});
afterAll(() => db.query(`DROP TABLE ${table}`));

const grouped = { grouped: true } as const;
/** Writes `key` in the member's transaction and answers that transaction's id. */
async function write(tx: Tx, key: string): Promise<string> {
  const [row] = await tx.query<{ txid: string }>(
    `INSERT INTO ${table} (key, txid) VALUES ($1, txid_current()::text) RETURNING txid`,
    [key],
  );
  return row?.txid as string;
}
const keysWritten = async (prefix: string) =>
  (
    await db.query<{ key: string }>(`SELECT key FROM ${table} WHERE key LIKE $1 ORDER BY key`, [`${prefix}%`])
  ).map((row) => row.key);
const failure = (code: string) => Object.assign(new Error(`SQLSTATE ${code}`), { code });

describe("group commit (issue 20)", () => {
  test("grouped transactions asked for in one turn of the event loop commit in one transaction", async () => {
    const txids = await Promise.all(
      Array.from({ length: 10 }, (_, i) => db.transaction((tx) => write(tx, `one-turn-${i}`), grouped)),
    );
    expect(new Set(txids).size).toBe(1);
    expect(await keysWritten("one-turn-")).toHaveLength(10);
  });

  test("a member that fails rolls back alone, with the work it deferred to commit; its batch-mates commit", async () => {
    const refused = new Error("refused by its own rule");
    const outcomes = await Promise.allSettled([
      db.transaction((tx) => write(tx, "alone-a"), grouped),
      db.transaction(async (tx) => {
        await write(tx, "alone-b");
        deferUntilCommit("deferred", () => write(tx, "alone-b-deferred").then(() => undefined));
        throw refused;
      }, grouped),
      db.transaction(async (tx) => {
        await write(tx, "alone-c");
        // Deferred work that fails fails its own member only.
        deferUntilCommit("deferred", () => tx.query("SELECT 1 / 0").then(() => undefined));
      }, grouped),
      db.transaction((tx) => write(tx, "alone-d"), grouped),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      "fulfilled",
      "rejected",
      "rejected",
      "fulfilled",
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBe(refused);
    const [a, , , d] = outcomes as PromiseFulfilledResult<string>[];
    expect(a?.value).toBe(d?.value);
    expect(await keysWritten("alone-")).toEqual(["alone-a", "alone-d"]);
  });

  test("a batch whose commit fails answers that failure to every member, and none of their writes exist", async () => {
    const outcomes = await Promise.allSettled([
      db.transaction((tx) => write(tx, "commit-fails-x"), grouped),
      db.transaction((tx) => write(tx, "commit-fails-same"), grouped),
      db.transaction((tx) => write(tx, "commit-fails-same"), grouped),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected", "rejected"]);
    for (const outcome of outcomes)
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: sqlstate.uniqueViolation });
    expect(await keysWritten("commit-fails-")).toEqual([]);
  });

  test("a batch's members run side by side in one transaction, no member waiting for another to finish", async () => {
    const alone = groupCommitting(db, { maxBatch: 8, lanes: 1 });
    const steps: string[] = [];
    const txids = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        alone.transaction(async (tx) => {
          steps.push(`start ${i}`);
          const txid = await write(tx, `alongside-${i}`);
          steps.push(`end ${i}`);
          return txid;
        }, grouped),
      ),
    );
    expect(new Set(txids).size).toBe(1);
    expect(steps.slice(0, 3).sort()).toEqual(["start 0", "start 1", "start 2"]);
    expect(alone.groupCommitStats()).toMatchObject({ batches: 1, transactions: 3, rerunOneByOne: 0 });
    expect(await keysWritten("alongside-")).toEqual(["alongside-0", "alongside-1", "alongside-2"]);
  });

  test("two members claiming one row make their batch run again one member after another, and both commit", async () => {
    const alone = groupCommitting(db, { maxBatch: 8, lanes: 1 });
    const steps: string[] = [];
    const member = (name: string, row: string) =>
      alone.transaction(async (tx) => {
        steps.push(`start ${name}`);
        claimRowsInBatch([row]);
        const txid = await write(tx, `claimed-${name}-${steps.length}`);
        steps.push(`end ${name}`);
        return txid;
      }, grouped);
    const txids = await Promise.all([member("a", "row:1"), member("b", "row:2"), member("c", "row:1")]);
    expect(new Set(txids).size).toBe(1);
    expect(alone.groupCommitStats()).toMatchObject({ batches: 1, transactions: 3, rerunOneByOne: 1 });
    // The side-by-side run stopped at c's claim; the rerun ran each member to its end before the next began.
    expect(steps.slice(-6)).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(await keysWritten("claimed-")).toHaveLength(3);
  });

  test("a failing member's batch-mates that ran beside it are run again and commit once", async () => {
    const alone = groupCommitting(db, { maxBatch: 8, lanes: 1 });
    const runs = { ok: 0, failing: 0 };
    const outcomes = await Promise.allSettled([
      alone.transaction(async (tx) => {
        runs.ok += 1;
        return write(tx, `rerun-ok-${runs.ok}`);
      }, grouped),
      alone.transaction(async (tx) => {
        runs.failing += 1;
        await write(tx, `rerun-failing-${runs.failing}`);
        throw new Error("refused");
      }, grouped),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected"]);
    expect(runs).toEqual({ ok: 2, failing: 2 });
    expect(alone.groupCommitStats().rerunOneByOne).toBe(1);
    expect(await keysWritten("rerun-")).toEqual(["rerun-ok-2"]);
  });

  test("a member that fails on a deadlock or serialization failure of its own runs again in a later batch", async () => {
    let attempts = 0;
    const txid = await db.transaction(async (tx) => {
      attempts += 1;
      const id = await write(tx, `retried-${attempts}`);
      if (attempts === 1) throw failure(sqlstate.deadlockDetected);
      return id;
    }, grouped);
    expect(attempts).toBe(2);
    expect(txid).toMatch(/^\d+$/);
    expect(await keysWritten("retried-")).toEqual(["retried-2"]);
  });

  test("a member runs the caller's transaction preamble (the idempotency claim) inside its own savepoint", async () => {
    let runs = 0;
    const preamble = (tx: Tx) => write(tx, `preamble-ran-${++runs}`).then(() => undefined);
    await withTransactionPreamble(preamble, () =>
      db.transaction((tx) => write(tx, "preamble-member"), grouped),
    );
    await expect(
      withTransactionPreamble(preamble, () =>
        db.transaction(async () => {
          throw new Error("the member fails");
        }, grouped),
      ),
    ).rejects.toThrow("the member fails");
    expect(runs).toBe(2);
    expect(await keysWritten("preamble-")).toEqual(["preamble-member", "preamble-ran-1"]);
  });

  test("a member is answered only after its batch committed: its writes are visible when it resolves", async () => {
    const seen = await Promise.all(
      Array.from({ length: 3 }, (_, i) =>
        db.transaction((tx) => write(tx, `visible-${i}`), grouped).then(() => keysWritten(`visible-${i}`)),
      ),
    );
    expect(seen).toEqual([["visible-0"], ["visible-1"], ["visible-2"]]);
  });

  test("at most maxBatch members share a commit, and lanes bound the batches open at once", async () => {
    const limited = groupCommitting(db, { maxBatch: 3, lanes: 1 });
    const txids = await Promise.all(
      Array.from({ length: 7 }, (_, i) => limited.transaction((tx) => write(tx, `bounded-${i}`), grouped)),
    );
    expect(txids.map((txid) => txids.indexOf(txid))).toEqual([0, 0, 0, 3, 3, 3, 6]);
    expect(limited.groupCommitStats()).toEqual({
      batches: 3,
      transactions: 7,
      largestBatch: 3,
      rerunOneByOne: 0,
      retried: 0,
    });
  });

  test("with maxBatch 1 or an isolation level a grouped transaction runs on its own", async () => {
    const single = groupCommitting(db, { maxBatch: 1, lanes: 1 });
    const alone = await Promise.all([
      single.transaction((tx) => write(tx, "single-a"), grouped),
      single.transaction((tx) => write(tx, "single-b"), grouped),
      db.transaction((tx) => write(tx, "single-c"), { ...grouped, isolation: "serializable" }),
      db.transaction((tx) => write(tx, "single-d"), { ...grouped, isolation: "serializable" }),
    ]);
    expect(new Set(alone).size).toBe(4);
    expect(single.groupCommitStats().batches).toBe(0);
  });
});

describe("the postings that are grouped", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  test("concurrent sandbox fundings and ACH deposits go through group commit, and the balance is their exact sum", async () => {
    const stats = () =>
      (server.deps.db as Db & { groupCommitStats(): { transactions: number } }).groupCommitStats();
    const account = await newAccount(server);
    const before = stats().transactions;
    await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => fund(server, account, 100 + i)),
      ...Array.from({ length: 2 }, () =>
        server.client
          .post(`/sandbox/internal-accounts/${account}/ach-deposit`, { amount: 1_000 })
          .then((res) => expect(res.status).toBe(200)),
      ),
    ]);
    expect(stats().transactions - before).toBe(8);
    expect(await balanceOf(server, account)).toBe(6 * 100 + 15 + 2 * 1_000);
  });

  test("fundings of several accounts at once, some sharing an account, leave every balance at its exact sum", async () => {
    const accounts = await Promise.all(Array.from({ length: 4 }, () => newAccount(server)));
    const shared = accounts[0] as string;
    await Promise.all([
      ...accounts.map((account, i) => fund(server, account, 10 + i)),
      ...Array.from({ length: 4 }, (_, i) => fund(server, shared, 1_000 * (i + 1))),
    ]);
    const balances = await Promise.all(accounts.map((account) => balanceOf(server, account)));
    expect(balances).toEqual([10 + 10_000, 11, 12, 13]);
  });
});
