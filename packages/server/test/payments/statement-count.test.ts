import { afterAll, beforeAll, expect, test } from "vitest";
import type { Db, Tx } from "../../src/core/db/db.js";
import { startServer, type TestServer } from "../harness.js";
import { fund, newAccount, transfer } from "../quotes/helpers.js";

const short = (statements: string[]) => statements.map((text) => text.replace(/\s+/g, " ").slice(0, 80));

/** The SQL statements of each of the app's transactions, in order (the body's last attempt). */
function statementRecorder() {
  const transactions: string[][] = [];
  return {
    transactions,
    wrap: (db: Db): Db => ({
      ...db,
      transaction: (fn, options) =>
        db.transaction((tx) => {
          const statements: string[] = [];
          transactions.push(statements);
          const counted: Tx = {
            inTransaction: true,
            query: (text, params) => {
              statements.push(text);
              return tx.query(text, params);
            },
          };
          return fn(counted);
        }, options),
    }),
  };
}

const recorder = statementRecorder();
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ wrapDb: recorder.wrap });
});
afterAll(() => server.close());

test("an immediately executed same-currency quote runs in one transaction of at most 19 statements", async () => {
  const from = await newAccount(server);
  const to = await newAccount(server);
  await fund(server, from, 10_000);
  recorder.transactions.length = 0;
  const res = await server.client.post("/quotes", transfer(from, to, 2_500, { immediatelyExecute: true }));
  expect(res.status).toBe(201);
  const executions = recorder.transactions.filter((statements) =>
    statements.some((text) => text.startsWith("INSERT INTO quotes")),
  );
  expect(executions).toHaveLength(1);
  const statements = short(executions[0] ?? []);
  // 37 before payments owned execution (issue 17); 17 since. The list shows in the failure message.
  expect(statements.length, statements.join("\n")).toBeLessThanOrEqual(19);
});

test("a sandbox funding is one transaction of 4 statements: lock, change with the balance, transaction, events", async () => {
  const account = await newAccount(server);
  recorder.transactions.length = 0;
  await fund(server, account, 1_000);
  const postings = recorder.transactions.filter((statements) =>
    statements.some((text) => text.startsWith("INSERT INTO transactions")),
  );
  expect(postings).toHaveLength(1);
  const statements = short(postings[0] ?? []);
  expect(statements.length, statements.join("\n")).toBe(4);
});

test("the daily volume counter is an execution's last statement before the events sent with its commit, so its row lock is held for one round trip", async () => {
  const from = await newAccount(server);
  const to = await newAccount(server);
  await fund(server, from, 10_000);
  recorder.transactions.length = 0;
  await server.client.post("/quotes", transfer(from, to, 2_500, { immediatelyExecute: true }));
  const [execution] = recorder.transactions.filter((statements) =>
    statements.some((text) => text.startsWith("INSERT INTO quotes")),
  );
  const statements = short(execution ?? []);
  const counter = statements.findIndex((text) => text.startsWith("INSERT INTO daily_volumes"));
  // Only the outbox's statement follows it, sent in the same write as COMMIT (core/db sendWithCommit).
  expect(statements.slice(counter + 1).map((text) => text.slice(0, 26))).toEqual([
    "WITH endpoint AS (SELECT w",
  ]);
});
