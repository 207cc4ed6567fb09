/** A row as the drivers return it: column name to parsed value. */
export type Row = Record<string, unknown>;

/** Runs SQL with positional parameters ($1, $2…). */
export interface Executor {
  query<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

/** An executor inside an open transaction; store functions that write require one. */
export interface Tx extends Executor {
  readonly inTransaction: true;
}

export type Isolation = "read committed" | "repeatable read" | "serializable";

export interface TransactionOptions {
  isolation?: Isolation;
  /** Attempts on serialization failure or deadlock (SQLSTATE 40001 / 40P01) before giving up. */
  maxAttempts?: number;
  /**
   * May share its commit with other grouped transactions of this process (core/db/group-commit.ts): for
   * short postings that many requests make at once. Answered only once its commit is durable.
   */
  grouped?: boolean;
}

/** The one database API the rest of the code sees; nothing outside core/db imports a driver. */
export interface Db extends Executor {
  readonly kind: "pglite" | "postgres";
  /** Runs fn in a transaction, committing on return and rolling back on throw; retried on 40001/40P01. */
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * PostgreSQL only (other processes share it): calls `handler` with each NOTIFY payload on `channel`, on a
   * connection of its own. `listening` is told true each time LISTEN is in place and false when that
   * connection breaks (notifications may have been missed until the next true; it is reopened). PGlite,
   * private to one process, has no such method.
   */
  listen?(channel: string, handler: (payload: string) => void, listening: (on: boolean) => void): void;
  /** The connections in use now, for /metrics (core/metrics): PGlite is one session, PostgreSQL a pool. */
  poolStats?(): PoolStats;
}

/** A database's connections at one instant: `inUse + idle` open of at most `size`; `waiting` queued for one. */
export interface PoolStats {
  size: number;
  inUse: number;
  idle: number;
  waiting: number;
}

/** Parses int8 to an exact JavaScript number, refusing values beyond 2^53 rather than rounding them. */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} exceeds the safe integer range`);
  return value;
}

export const INT8_OID = 20;
