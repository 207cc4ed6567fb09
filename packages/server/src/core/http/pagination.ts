import { type TSchema, Type } from "typebox";
import type { Executor, Row } from "../db/db.js";
import { invalidField } from "../errors/api-error.js";
import { sha256Hex } from "../hash.js";
import { StringEnum } from "./schemas.js";

/** `limit` and `cursor` query parameters of every paginated list (conventions §1.6). */
export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
};
export const SortQuery = {
  sortOrder: Type.Optional(StringEnum(["asc", "desc"], { default: "desc" })),
};

/** A querystring schema: unknown parameters are refused like unknown body fields (conventions §1.1). */
export function Query<T extends Parameters<typeof Type.Object>[0]>(properties: T) {
  return Type.Object(properties, { additionalProperties: false });
}

export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    hasMore: Type.Boolean(),
    nextCursor: Type.Optional(Type.String()),
    totalCount: Type.Integer({ minimum: 0 }),
  });
}

/** A page request with the defaults applied. */
export interface PageRequest {
  limit: number;
  cursor: string | undefined;
  sortOrder: "asc" | "desc";
}

/** Splits a list's querystring into its filters and its page request (limit 20, newest first by default). */
export function splitPageQuery<Q extends { limit?: number; cursor?: string; sortOrder?: "asc" | "desc" }>(
  query: Q,
): { filters: Omit<Q, "limit" | "cursor" | "sortOrder">; page: PageRequest } {
  const { limit, cursor, sortOrder, ...filters } = query;
  return { filters, page: { limit: limit ?? 20, cursor, sortOrder: sortOrder ?? "desc" } };
}

export interface PageResult<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

interface Position {
  createdAt: string;
  id: string;
}

// A cursor names its list (the scope: list, platform, filters, order) so one from another list, another
// platform or other filters is refused rather than silently misread.
function scopeHash(scope: string): string {
  return sha256Hex(scope).slice(0, 16);
}

export function encodeCursor(scope: string, position: Position): string {
  return Buffer.from(JSON.stringify([scopeHash(scope), position.createdAt, position.id])).toString(
    "base64url",
  );
}

export function decodeCursor(scope: string, raw: string): Position {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalidField("cursor", "is not a cursor returned by this list");
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    parsed[0] !== scopeHash(scope) ||
    typeof parsed[1] !== "string" ||
    typeof parsed[2] !== "string" ||
    Number.isNaN(Date.parse(parsed[1]))
  ) {
    throw invalidField("cursor", "is not a cursor returned by this list");
  }
  return { createdAt: parsed[1], id: parsed[2] };
}

export interface ListQuery {
  executor: Executor;
  /** Table name (trusted, from code). */
  table: string;
  /** SQL conditions over the table with $n placeholders numbered from 1, joined by AND. */
  where: string[];
  params: unknown[];
  limit: number;
  cursor: string | undefined;
  sortOrder: "asc" | "desc";
  /** Identifies the list and its filters: a cursor is valid only for the same scope. */
  scope: string;
}

/** Keyset pagination by (created_at, id) with a total count of the filtered list. */
export async function listPage<R extends Row & { id: string; created_at: Date }>(
  query: ListQuery,
): Promise<PageResult<R>> {
  const where = [...query.where];
  const params = [...query.params];
  const countSql = `SELECT count(*)::int8 AS total FROM ${query.table} WHERE ${where.join(" AND ") || "TRUE"}`;
  const countParams = [...params];
  if (query.cursor !== undefined) {
    const position = decodeCursor(`${query.scope}|${query.sortOrder}`, query.cursor);
    params.push(position.createdAt, position.id);
    const op = query.sortOrder === "asc" ? ">" : "<";
    where.push(`(created_at, id) ${op} ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  const direction = query.sortOrder === "asc" ? "ASC" : "DESC";
  params.push(query.limit + 1);
  const rows = await query.executor.query<R>(
    `SELECT * FROM ${query.table} WHERE ${where.join(" AND ") || "TRUE"}
     ORDER BY created_at ${direction}, id ${direction} LIMIT $${params.length}`,
    params,
  );
  const [count] = await query.executor.query<{ total: number }>(countSql, countParams);
  const hasMore = rows.length > query.limit;
  const data = hasMore ? rows.slice(0, query.limit) : rows;
  const last = data[data.length - 1];
  const result: PageResult<R> = { data, hasMore, totalCount: count?.total ?? 0 };
  if (hasMore && last) {
    result.nextCursor = encodeCursor(`${query.scope}|${query.sortOrder}`, {
      createdAt: last.created_at.toISOString(),
      id: last.id,
    });
  }
  return result;
}
