/** API token wire types, mirroring packages/server/src/auth/schemas.ts field for field. */
import type { SortedPageParams } from "./common.js";

export type Permission = "VIEW" | "TRANSACT" | "MANAGE";

export interface CreateTokenBody {
  name: string;
  permissions: Permission[];
}

export interface ApiToken {
  id: string;
  name: string;
  permissions: Permission[];
  clientId: string;
  createdAt: string;
  updatedAt: string;
}

/** The create answer: the only time `clientSecret` is returned. */
export interface CreatedApiToken extends ApiToken {
  clientSecret: string;
}

/** Filters of `GET /tokens` (the hosted API's): the exact `name`, and inclusive time bounds. */
export interface TokenListParams extends SortedPageParams {
  name?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}
