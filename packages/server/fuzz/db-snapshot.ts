import type { Executor } from "../src/core/db/db.js";

/**
 * Issue 9 part 6, the detector behind "nothing is written for a rejected request".
 *
 * Exact: per table, the row
 * count and the sum of a 64-bit hash of every row's text (`hashtextextended(row::text, 0)`), read in one
 * statement. Any insert, delete or change of any column of any row moves the table's figures (the sum is
 * order-independent, so it needs no sort); two snapshots taken around one request with nothing else
 * running tell exactly which tables that request changed (net: a row inserted then deleted again, as an
 * idempotency key released after a 400, leaves no trace). Works the same on PGlite and PostgreSQL.
 *
 * Cheap: the full snapshot is read only when something was committed. A row trigger on every table
 * appends to `fuzz_write_log` inside the writing transaction (so a rollback takes the entry back out);
 * after a request with no new entry the previous snapshot still holds and costs one indexed read.
 * `install()` adds the log and the triggers: run it on a scratch or test database only.
 */
export type TableFigures = { rows: number; hash: string };
export type Snapshot = Map<string, TableFigures>;

export interface TableChange {
  table: string;
  /** Row count after minus before. */
  rowDelta: number;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export class DbSnapshotter {
  private sql: string | null = null;
  private tables: string[] = [];

  constructor(private readonly db: Executor) {}

  /** Every base table of the public schema except the migration journal. */
  private async statement(): Promise<string> {
    if (this.sql) return this.sql;
    const tables = await this.db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
         AND table_name NOT IN ('fuzz_write_log', 'paysvc_migrations') ORDER BY table_name`,
    );
    this.tables = tables.map((t) => t.name);
    this.sql = tables
      .map(
        ({ name }) =>
          `SELECT '${name.replace(/'/g, "''")}' AS t, count(*)::text AS n, ` +
          `coalesce(sum(hashtextextended(x::text, 0)), 0)::text AS h FROM ${quoteIdent(name)} x`,
      )
      .join(" UNION ALL ");
    return this.sql;
  }

  private installed = false;
  private logMark = 0;
  private last: Snapshot | null = null;

  /** Adds `fuzz_write_log` and a row trigger on every table (idempotent). */
  async install(): Promise<void> {
    const sql = await this.statement();
    await this.db.query(
      "CREATE TABLE IF NOT EXISTS fuzz_write_log (id bigserial PRIMARY KEY, tbl text NOT NULL)",
    );
    await this.db.query(
      `CREATE OR REPLACE FUNCTION fuzz_log_write() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN INSERT INTO fuzz_write_log (tbl) VALUES (TG_TABLE_NAME); RETURN NULL; END $$`,
    );
    for (const name of this.tables) {
      await this.db.query(`DROP TRIGGER IF EXISTS fuzz_log_write ON ${quoteIdent(name)}`);
      await this.db.query(
        `CREATE TRIGGER fuzz_log_write AFTER INSERT OR UPDATE OR DELETE ON ${quoteIdent(name)}
         FOR EACH ROW EXECUTE FUNCTION fuzz_log_write()`,
      );
    }
    this.installed = sql.length > 0;
  }

  /**
   * The tables whose rows changed (net) since the previous call; the first call only records the
   * state. With the log installed, a call after nothing was committed reads one row.
   */
  async changes(): Promise<TableChange[]> {
    if (this.installed && this.last) {
      const [row] = await this.db.query<{ mark: string | null }>(
        "SELECT max(id)::text AS mark FROM fuzz_write_log WHERE id > $1",
        [this.logMark],
      );
      if (row?.mark === null || row?.mark === undefined) return [];
      this.logMark = Number(row.mark);
    }
    const now = await this.take();
    const before = this.last;
    this.last = now;
    return before ? diffSnapshots(before, now) : [];
  }

  async take(): Promise<Snapshot> {
    const rows = await this.db.query<{ t: string; n: string; h: string }>(await this.statement());
    return new Map(rows.map((r) => [r.t, { rows: Number(r.n), hash: r.h }]));
  }
}

/** The tables whose rows differ between two snapshots. */
export function diffSnapshots(before: Snapshot, after: Snapshot): TableChange[] {
  const changes: TableChange[] = [];
  for (const [table, a] of after) {
    const b = before.get(table);
    if (!b || b.rows !== a.rows || b.hash !== a.hash)
      changes.push({ table, rowDelta: a.rows - (b?.rows ?? 0) });
  }
  return changes;
}
