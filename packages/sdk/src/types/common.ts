/**
 * The shared base of every wire type: currency, money, error bodies and pagination (conventions §1.4–§1.7).
 * A leaf: it imports nothing, so every per-area file here can import it without closing a circle.
 */

/** Currency metadata (conventions §1.4). */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

/** An amount in integer minor units with its currency. */
export interface CurrencyAmount {
  amount: number;
  currency: Currency;
}

/** One invalid field of a `400 INVALID_INPUT` answer, listed in `details.errors`. */
export interface FieldError {
  field: string;
  constraint?: {
    format?: string;
    pattern?: string;
    enum?: string[];
    minLength?: number;
    maxLength?: number;
  };
  message: string;
}

/** Every error body: exactly `{code, reason, details?}` (conventions §1.7). */
export interface ErrorBody {
  code: string;
  reason: string;
  details?: Record<string, unknown>;
}

/** `limit` (1–100, default 20) and `cursor` of every paginated list (conventions §1.6). */
export interface PageParams {
  limit?: number;
  cursor?: string;
}

/** Lists sorted by `createdAt` also take `sortOrder` (default `desc`). */
export interface SortedPageParams extends PageParams {
  sortOrder?: "asc" | "desc";
}

/** One page of a list; `nextCursor` is present only when `hasMore` is true. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/** An unpaginated list (`GET /customers/agreements`, `GET /platform/internal-accounts`). */
export interface DataList<T> {
  data: T[];
}
