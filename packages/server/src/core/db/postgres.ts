import pg from "pg";
import { type Db, INT8_OID, parseInt8, type Row, type TransactionOptions, type Tx } from "./db.js";
import { beginStatement, withRetry } from "./retry.js";
import { assertOutsideTransaction, inTransactionScope, transactionPreamble } from "./scope.js";

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

/** PostgreSQL through a `pg` pool; int8 is parsed to exact numbers (pg returns strings by default). */
export function openPostgres(
  connectionString: string,
  poolSize = DEFAULT_POOL_SIZE,
  timeouts: PostgresTimeouts = DEFAULT_POSTGRES_TIMEOUTS,
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
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  let closed = false;
  const listeners = new Set<pg.Client>();

  return {
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
        try {
          await client.query(beginStatement(options));
          const tx: Tx = {
            inTransaction: true,
            query: async <R extends Row>(text: string, params?: readonly unknown[]) =>
              (await client.query<R>(named(text, params))).rows,
          };
          try {
            const value = await inTransactionScope(async () => {
              if (preamble) await preamble(tx);
              return fn(tx);
            });
            await client.query("COMMIT");
            return value;
          } catch (error) {
            await client.query("ROLLBACK").catch((rollbackError: Error) => {
              broken = rollbackError;
            });
            throw error;
          }
        } finally {
          client.release(broken);
        }
      }, options);
    },
    ping: async () => {
      await pool.query("SELECT 1");
    },
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
}
