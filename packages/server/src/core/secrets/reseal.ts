import type { Executor } from "../db/db.js";
import { SEALED_COLUMNS, type SealedColumn } from "./sealed-columns.js";
import { isSealed, SEALED_PREFIX, type SecretBox } from "./secret-box.js";

/** How many values of a column are sealed under each key (`keyId` null: stored in clear). */
export interface CensusEntry {
  label: string;
  keyId: string | null;
  count: number;
}

/** Every sealed column, counted by the key its values name. */
export async function secretsCensus(
  db: Executor,
  columns: readonly SealedColumn[] = SEALED_COLUMNS,
): Promise<CensusEntry[]> {
  const entries: CensusEntry[] = [];
  for (const column of columns) {
    const rows = await db.query<{ key_id: string | null; n: number }>(
      `SELECT CASE WHEN starts_with(v, $1) THEN split_part(v, ':', 3) END AS key_id, count(*)::int AS n
       FROM (SELECT ${column.value} AS v FROM ${column.table}) s WHERE v IS NOT NULL GROUP BY 1`,
      [SEALED_PREFIX],
    );
    for (const row of rows) entries.push({ label: column.label, keyId: row.key_id, count: row.n });
  }
  return entries;
}

/** Refuses, naming them, keys that values are sealed under but that `box` does not have. */
export function checkKeysKnown(census: CensusEntry[], box: SecretBox): void {
  const unknown = [
    ...new Set(census.flatMap((e) => (e.keyId !== null && !box.knows(e.keyId) ? [e.keyId] : []))),
  ];
  if (unknown.length > 0)
    throw new Error(
      `the database holds secrets sealed under master key ${unknown.join(", ")}, which is not configured (configured: ${box.keyIds.join(", ")}); set PAYSVC_MASTER_KEY to it, or list it in PAYSVC_PREVIOUS_MASTER_KEYS`,
    );
}

const PAGE = 200;

/**
 * Seals again, under the box's current key, every value of `column` that does not start with `skipPrefix`,
 * page by page in row-id order. Each row is replaced only if it still holds what was read, so a value
 * written meanwhile (already under the current key) is left as it is. Returns how many were replaced.
 */
async function resealColumn(
  db: Executor,
  box: SecretBox,
  column: SealedColumn,
  skipPrefix: string,
): Promise<number> {
  let replaced = 0;
  let after = "";
  for (;;) {
    const rows = await db.query<{ row_id: string; v: string }>(
      `SELECT ${column.rowId} AS row_id, ${column.value} AS v FROM ${column.table}
       WHERE ${column.value} IS NOT NULL AND NOT starts_with(${column.value}, $1) AND ${column.rowId} > $2
       ORDER BY 1 LIMIT ${PAGE}`,
      [skipPrefix, after],
    );
    for (const { row_id: rowId, v } of rows) {
      let plaintext: Uint8Array;
      if (isSealed(v)) plaintext = await box.open(column.purpose, rowId, v);
      else if (column.fromClear) plaintext = column.fromClear(v);
      else throw new Error(`the ${column.label} of ${rowId} is not sealed, and was never kept in clear`);
      const sealed = await box.seal(column.purpose, rowId, plaintext);
      plaintext.fill(0);
      const updated = await db.query(
        `UPDATE ${column.table} SET ${column.assign} WHERE ${column.rowId} = $2 AND ${column.value} = $3
         RETURNING 1 AS one`,
        [sealed, rowId, v],
      );
      replaced += updated.length;
    }
    if (rows.length < PAGE) return replaced;
    after = rows[rows.length - 1]?.row_id ?? after;
  }
}

/**
 * `clear`: seals the values stored in clear (before issue 16), leaving sealed ones as they are; what the
 * start runs. `not-current`: also seals again what is under an older key; what a rotation runs.
 * Returns the count per column label.
 */
export async function resealSecrets(
  db: Executor,
  box: SecretBox,
  scope: "clear" | "not-current",
  columns: readonly SealedColumn[] = SEALED_COLUMNS,
): Promise<Record<string, number>> {
  const skip = scope === "clear" ? SEALED_PREFIX : `${SEALED_PREFIX}${box.current.id}:`;
  const counts: Record<string, number> = {};
  for (const column of columns)
    counts[column.label] = (counts[column.label] ?? 0) + (await resealColumn(db, box, column, skip));
  return counts;
}
