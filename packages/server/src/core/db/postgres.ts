import { createRequire } from "node:module";
import pg from "pg";
import { type Db, INT8_OID, parseInt8, type Row, type TransactionOptions, type Tx } from "./db.js";
import { DEFAULT_GROUP_COMMIT, type GroupCommitSettings, groupCommitting } from "./group-commit.js";
import { beginStatement, withRetry } from "./retry.js";
import { assertOutsideTransaction, inTransactionScope, transactionPreamble } from "./scope.js";

// pg's own conversion of a parameter to its wire text (not in its typings).
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils.js") as {
  prepareValue: (value: unknown) => unknown;
};

const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID
      ? parseInt8
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/**
 * How long a database call may take before it fails instead of hanging (issue 16 item 6). The server
 * ends a statement or an idle transaction; the client gives up on a connection that stopped answering
 * (a frozen network), which the pool then discards, and TCP keepalive finds dead peers.
 */
export interface PostgresTimeouts {
  /** Opening a connection, and waiting for a free one in the pool (pg-pool uses one setting for both). */
  connectMs: number;
  statementMs: number;
  idleInTransactionMs: number;
  /** Client side; longer than statementMs, so the server's own cancel normally answers first. */
  queryMs: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = {
  // pg-pool uses it for waiting for a free connection too: under load a request queues for one, so this
  // bounds a stalled database, not a busy pool (5 s made concurrent transfers on a pool of 5 fail).
  connectMs: 30_000,
  statementMs: 30_000,
  idleInTransactionMs: 60_000,
  queryMs: 35_000,
};

const TIMEOUT_SETTINGS = {
  connectMs: "PAYSVC_DB_CONNECT_TIMEOUT_MS",
  statementMs: "PAYSVC_DB_STATEMENT_TIMEOUT_MS",
  idleInTransactionMs: "PAYSVC_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS",
} as const;

/** Connections per process unless PAYSVC_DB_POOL_SIZE says otherwise. */
export const DEFAULT_POOL_SIZE = 10;

/** The pool size from the environment (PAYSVC_DB_POOL_SIZE, 1 to 100). */
export function postgresPoolSizeFrom(env: NodeJS.ProcessEnv): number {
  const text = env.PAYSVC_DB_POOL_SIZE;
  if (text === undefined) return DEFAULT_POOL_SIZE;
  const size = Number(text);
  if (!Number.isInteger(size) || size < 1 || size > 100)
    throw new Error(
      `invalid configuration: PAYSVC_DB_POOL_SIZE must be a whole number from 1 to 100, not ${text}`,
    );
  return size;
}

/** The timeouts from the environment; the client-side limit follows the statement timeout. */
export function postgresTimeoutsFrom(env: NodeJS.ProcessEnv): PostgresTimeouts {
  const timeouts = { ...DEFAULT_POSTGRES_TIMEOUTS };
  for (const [key, name] of Object.entries(TIMEOUT_SETTINGS) as [keyof typeof TIMEOUT_SETTINGS, string][]) {
    const text = env[name];
    if (text === undefined) continue;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 100 || value > 3_600_000)
      throw new Error(`invalid configuration: ${name} must be milliseconds from 100 to 3600000, not ${text}`);
    timeouts[key] = value;
  }
  timeouts.queryMs = timeouts.statementMs + 5_000;
  return timeouts;
}

/**
 * Statements get a name the first times they are seen, so each connection parses and plans them once and
 * then only binds and executes (issue 20: named statements alone doubled a posting's rate). Names are
 * bounded: SQL built with a varying shape past this many distinct texts runs unnamed.
 */
const MAX_NAMED_STATEMENTS = 2_000;
/** How soon a broken LISTEN connection is reopened. */
const LISTEN_RETRY_MS = 1_000;
const statementNames = new Map<string, string>();

function named(text: string, params: readonly unknown[] | undefined): pg.QueryConfig {
  // Without parameters: the simple protocol, which also runs scripts of several statements (migrations).
  if (params === undefined) return { text };
  const values = [...params];
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `paysvc_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name === undefined ? { text, values } : { name, text, values };
}

interface PgConnectionInternals {
  connection: {
    _send(buffer: Buffer): boolean;
    stream: NodeJS.WritableStream & { cork(): void; uncork(): void };
  };
}

/**
 * Writes a connection's messages once per tick. `pg` writes each protocol message (Bind, Describe,
 * Execute, Sync) on its own, so a statement cost two `write` syscalls and woke the server twice; on this
 * machine's loopback those syscalls were a third of the process's CPU (issue 20, measured). Corked until
 * the next tick, a statement, or a pipelined BEGIN and statement, leave as one write.
 */
function corkWritesPerTick(client: pg.Client): void {
  const { connection } = client as unknown as PgConnectionInternals;
  // A private method of pg's Connection: if an upgrade renames it, every PostgreSQL test says so here.
  if (typeof connection._send !== "function") throw new Error("pg's Connection has no _send to cork");
  const send = connection._send.bind(connection);
  let corked = false;
  const uncork = () => {
    corked = false;
    connection.stream.uncork();
  };
  connection._send = (buffer: Buffer) => {
    if (!corked) {
      corked = true;
      connection.stream.cork();
      process.nextTick(uncork);
    }
    return send(buffer);
  };
}

const endedMessage =
  "a statement was issued after its transaction ended (await every step: core/db together)";

/** PostgreSQL through a `pg` pool; int8 is parsed to exact numbers (pg returns strings by default). */
export function openPostgres(
  connectionString: string,
  poolSize = DEFAULT_POOL_SIZE,
  timeouts: PostgresTimeouts = DEFAULT_POSTGRES_TIMEOUTS,
  groupCommit: GroupCommitSettings = DEFAULT_GROUP_COMMIT,
): Db {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    types,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    query_timeout: timeouts.queryMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Statements are sent without waiting for the answer to the one before (BEGIN with a transaction's
    // first statement); each still has its own Sync, so an error stays with its statement.
    pipeline: true,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  pool.on("connect", corkWritesPerTick);
  let closed = false;
  const listeners = new Set<pg.Client>();

  const db: Db = {
    kind: "postgres",
    query: async <T extends Row>(text: string, params?: readonly unknown[]) => {
      assertOutsideTransaction("db.query");
      return (await pool.query<T>(named(text, params))).rows;
    },
    transaction: <T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions) => {
      assertOutsideTransaction("db.transaction");
      const preamble = transactionPreamble();
      return withRetry(async () => {
        const client = await pool.connect();
        let broken: Error | undefined;
        // A step still running after its transaction ended must not reach the connection's next user.
        let ended = false;
        // BEGIN goes out with the first statement, saving a round trip: BEGIN has a constant text, takes no
        // lock and cannot fail on a connection that then runs the next statement.
        let beginning: Promise<unknown> | undefined = client.query(beginStatement(options));
        const begun = async (): Promise<void> => {
          const pending = beginning;
          beginning = undefined;
          await pending;
        };
        try {
          const tx: Tx = {
            inTransaction: true,
            query: async <R extends Row>(text: string, params?: readonly unknown[]) => {
              if (ended) throw new Error(endedMessage);
              const result = client.query<R>(named(text, params));
              if (!beginning) return (await result).rows;
              const [, { rows }] = await Promise.all([begun(), result]);
              return rows;
            },
          };
          try {
            return await inTransactionScope(
              async () => {
                if (preamble) await preamble(tx);
                return fn(tx);
              },
              async (withCommit) => {
                // pg turns a parameter it cannot send into an error before the server sees the statement,
                // and COMMIT would then commit without it: such a value fails here, before COMMIT is sent.
                for (const statement of withCommit) statement.params.forEach(prepareValue);
                const sent = withCommit.map((statement) =>
                  statement.tx.query(statement.text, statement.params),
                );
                // In the same write: a failed statement aborts the transaction, so this COMMIT rolls it back.
                const committed = client.query("COMMIT");
                const outcomes = await Promise.allSettled([begun(), ...sent, committed]);
                const failure = outcomes.find((outcome) => outcome.status === "rejected");
                if (failure) throw failure.reason;
              },
            );
          } catch (error) {
            await begun().catch(() => undefined);
            await client.query("ROLLBACK").catch((rollbackError: Error) => {
              broken = rollbackError;
            });
            throw error;
          }
        } finally {
          ended = true;
          client.release(broken);
        }
      }, options);
    },
    ping: async () => {
      await pool.query("SELECT 1");
    },
    poolStats: () => ({
      size: poolSize,
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    listen: (channel, handler, listening) => {
      const open = async (): Promise<void> => {
        const client = new pg.Client({ connectionString, keepAlive: true });
        listeners.add(client);
        let lost = false;
        const reopen = () => {
          if (lost) return;
          lost = true;
          listeners.delete(client);
          client.end().catch(() => undefined);
          if (closed) return;
          listening(false);
          setTimeout(() => void open(), LISTEN_RETRY_MS).unref();
        };
        client.on("error", reopen);
        client.on("end", reopen);
        client.on("notification", (message) => {
          if (message.channel === channel) handler(message.payload ?? "");
        });
        try {
          await client.connect();
          await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
          if (!lost) listening(true);
        } catch {
          reopen();
        }
      };
      void open();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((client) => client.end().catch(() => undefined)));
      await pool.end();
    },
  };
  return groupCommitting(db, groupCommit);
}
