import { Type } from "typebox";
import { DateTime } from "./schemas.js";

/**
 * The hosted API's creation and update time filters of a list (`GET /customers`, `GET /tokens`): RFC 3339
 * instants with an explicit offset, each bound inclusive (docs/decisions.md).
 */
export const TimeRangeQuery = {
  createdAfter: Type.Optional(DateTime({ description: "Created at or after this instant." })),
  createdBefore: Type.Optional(DateTime({ description: "Created at or before this instant." })),
  updatedAfter: Type.Optional(DateTime({ description: "Last updated at or after this instant." })),
  updatedBefore: Type.Optional(DateTime({ description: "Last updated at or before this instant." })),
};

export interface TimeRange {
  createdAfter?: string | undefined;
  createdBefore?: string | undefined;
  updatedAfter?: string | undefined;
  updatedBefore?: string | undefined;
}

/** The SQL conditions of a time range over `created_at` and `updated_at`, appending their values to `params`. */
export function timeRangeConditions(range: TimeRange, params: unknown[]): string[] {
  const bounds: [string | undefined, string][] = [
    [range.createdAfter, "created_at >="],
    [range.createdBefore, "created_at <="],
    [range.updatedAfter, "updated_at >="],
    [range.updatedBefore, "updated_at <="],
  ];
  const where: string[] = [];
  for (const [value, condition] of bounds) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${condition} $${params.length}::timestamptz`);
  }
  return where;
}
