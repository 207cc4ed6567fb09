import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { type Static, Type } from "typebox";
import type { Deps } from "../core/deps.js";
import { invalidField } from "../core/errors/api-error.js";
import { sha256Hex } from "../core/hash.js";
import type { Caller } from "../core/http/context.js";
import {
  Page,
  PageQuery,
  type PageRequest,
  Query,
  SortQuery,
  splitPageQuery,
} from "../core/http/pagination.js";
import { publicOrigin } from "../core/http/public-origin.js";
import { Currency, errorResponses } from "../core/http/schemas.js";
import { currency, currencyCodes, isKnownCurrency } from "../core/money.js";
import { umaDomainOf } from "../platform/uma-domain.js";
import { corridorFor } from "../rails/corridors.js";
import { msatsPerMinorUnit } from "./lightning-price.js";
import { SANDBOX_COUNTERPARTY_DOMAIN } from "./sandbox-counterparty-domains.js";

// `GET /uma-providers` and `GET /vasps` (issue 19): the UMA VASPs this deployment knows, in the hosted
// API's shapes. What is listed, and how, is in docs/decisions.md "UMA (issue 19)".

/** The hosted API's UmaProvider; paysvc always fills name, domain, regions, currencies and allowListStatus. */
export const UmaProvider = Type.Object({
  name: Type.String(),
  domain: Type.String(),
  /** ISO 3166-1 alpha-2: the home markets of the currencies it receives (rails/corridors.ts). */
  supportedRegions: Type.Array(Type.String()),
  supportedCurrencies: Type.Array(Currency),
  /** No deployment keeps an allow list of providers yet: every provider is allowed. */
  allowListStatus: Type.Boolean(),
});
export type UmaProvider = Static<typeof UmaProvider>;

export const UmaProviderListResponse = Page(UmaProvider);
export type UmaProviderListResponse = Static<typeof UmaProviderListResponse>;

export const UmaProviderQuery = Query({
  countryCode: Type.Optional(Type.String({ pattern: "^[A-Z]{2}$", description: "ISO 3166-1 alpha-2" })),
  currencyCode: Type.Optional(Type.String({ pattern: "^[A-Z]{3,4}$", description: "ISO 4217 code" })),
  /** Accepted as the hosted API does; no provider is blocked here, so it changes nothing. */
  hasBlockedProviders: Type.Optional(Type.Boolean()),
  ...PageQuery,
  ...SortQuery,
});
export type UmaProviderQuery = Static<typeof UmaProviderQuery>;

/** The hosted API's Vasp: `url` is the base URL its UMA endpoints are reached at from this deployment. */
export const Vasp = Type.Object({ vaspName: Type.String(), url: Type.String() });
export type Vasp = Static<typeof Vasp>;

/** The hosted API's VaspListResponse (no totalCount there). */
export const VaspListResponse = Type.Object({
  data: Type.Array(Vasp),
  hasMore: Type.Boolean(),
  nextCursor: Type.Optional(Type.String()),
});
export type VaspListResponse = Static<typeof VaspListResponse>;

export const VaspQuery = Query({ ...PageQuery });
export type VaspQuery = Static<typeof VaspQuery>;

export const umaDirectoryRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    "/uma-providers",
    {
      schema: {
        tags: ["UMA"],
        description:
          "The UMA providers this deployment knows: its platforms of the caller's environment, the sandbox counterparty (sandbox) and the PAYSVC_UMA_DOMAINS entries.",
        querystring: UmaProviderQuery,
        response: { 200: UmaProviderListResponse, ...errorResponses },
      },
    },
    async (request) => listUmaProviders(deps, request.caller, request.query),
  );
  app.get(
    "/vasps",
    {
      schema: {
        tags: ["UMA"],
        description:
          "The UMA VASPs this deployment knows (as /uma-providers), each with the base URL its UMA endpoints are reached at.",
        querystring: VaspQuery,
        response: { 200: VaspListResponse, ...errorResponses },
      },
    },
    async (request) => listVasps(deps, request.caller, publicOrigin(deps, app), request.query),
  );
};

/** A UMA VASP this deployment knows. */
interface KnownVasp {
  name: string;
  domain: string;
  /** Currency codes it receives; empty when unknown (a PAYSVC_UMA_DOMAINS entry). */
  currencies: readonly string[];
}

const COUNTERPARTY_NAME = "paysvc sandbox counterparty";

/**
 * Every VASP the caller may see, one per domain: its own platform (never another tenant's: tenants do not
 * learn of each other, even by domain), the sandbox counterparty
 * to sandbox platforms of a sandbox deployment, then the PAYSVC_UMA_DOMAINS domains not already listed.
 */
async function knownVasps(deps: Deps, caller: Caller): Promise<KnownVasp[]> {
  const rows = await deps.db.query<{
    id: string;
    name: string;
    supported_currencies: string[];
    uma_domain: string | null;
  }>("SELECT id, name, supported_currencies, uma_domain FROM platforms WHERE id = $1", [caller.platformId]);
  const known = new Map<string, KnownVasp>();
  for (const row of rows) {
    const domain = umaDomainOf(row, deps.publicUrl);
    known.set(domain, { name: row.name, domain, currencies: row.supported_currencies });
  }
  if (deps.mode === "sandbox" && caller.environment === "SANDBOX") {
    // It receives every currency it can price (`$success.<currency>`), as its LNURLP answers do.
    const now = deps.clock.now();
    const currencies = currencyCodes.filter((code) => msatsPerMinorUnit(code, now) !== undefined);
    const domain = SANDBOX_COUNTERPARTY_DOMAIN;
    known.set(domain, { name: COUNTERPARTY_NAME, domain, currencies });
  }
  for (const domain of Object.keys(deps.umaDomains ?? {}))
    if (!known.has(domain)) known.set(domain, { name: domain, domain, currencies: [] });
  return [...known.values()];
}

/** Home markets of the currencies (the corridor table's), sorted; currencies without a corridor add none. */
function regionsOf(codes: readonly string[]): string[] {
  return [...new Set(codes.flatMap((code) => corridorFor(code)?.market.countries ?? []))].sort();
}

function toProvider(vasp: KnownVasp): UmaProvider {
  const codes = vasp.currencies.filter(isKnownCurrency);
  return {
    name: vasp.name,
    domain: vasp.domain,
    supportedRegions: regionsOf(codes),
    supportedCurrencies: codes.map(currency),
    allowListStatus: true,
  };
}

/**
 * `GET /uma-providers`: filtered by a region and a currency it receives (a currency nothing receives is an
 * empty list), ordered by domain (`desc` by default, as every list), paginated by domain.
 */
export async function listUmaProviders(
  deps: Deps,
  caller: Caller,
  query: UmaProviderQuery,
): Promise<UmaProviderListResponse> {
  const { filters, page } = splitPageQuery(query);
  const { countryCode, currencyCode } = filters;
  const providers = (await knownVasps(deps, caller))
    .map(toProvider)
    .filter((p) => countryCode === undefined || p.supportedRegions.includes(countryCode))
    .filter((p) => currencyCode === undefined || p.supportedCurrencies.some((c) => c.code === currencyCode));
  const scope = `uma-providers|${caller.platformId}|${countryCode ?? ""}|${currencyCode ?? ""}`;
  return pageOf(providers, (p) => [p.domain], page, scope);
}

/**
 * `GET /vasps`: the same VASPs, by name then domain, each with its base URL as uma/counterparty.ts
 * vaspBaseUrl resolves it: the PAYSVC_UMA_DOMAINS entry, else this service's `/uma/{domain}`.
 */
export async function listVasps(
  deps: Deps,
  caller: Caller,
  origin: string,
  query: VaspQuery,
): Promise<VaspListResponse> {
  const vasps = await knownVasps(deps, caller);
  const { page } = splitPageQuery({ ...query, sortOrder: "asc" as const });
  const { data, hasMore, nextCursor } = pageOf(
    vasps,
    (v) => [v.name, v.domain],
    page,
    `vasps|${caller.platformId}`,
  );
  return {
    data: data.map((vasp) => ({
      vaspName: vasp.name,
      url: (deps.umaDomains?.[vasp.domain] ?? `${origin}/uma/${vasp.domain}`).replace(/\/+$/, ""),
    })),
    hasMore,
    ...(nextCursor === undefined ? {} : { nextCursor }),
  };
}

const compareKeys = (a: readonly string[], b: readonly string[]): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [x = "", y = ""] = [a[i], b[i]];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
};

/**
 * One page of a list built in memory, by a unique key: the cursor is base64url of `[scope hash, ...key of
 * the page's last item]`, so a cursor of another list, platform, filter or order is `400` on `cursor`.
 */
function pageOf<T>(
  items: readonly T[],
  keyOf: (item: T) => string[],
  page: PageRequest,
  listScope: string,
): { data: T[]; hasMore: boolean; nextCursor?: string; totalCount: number } {
  const direction = page.sortOrder === "asc" ? 1 : -1;
  const sorted = [...items].sort((a, b) => direction * compareKeys(keyOf(a), keyOf(b)));
  const scope = sha256Hex(`${listScope}|${page.sortOrder}`).slice(0, 16);
  let rest = sorted;
  if (page.cursor !== undefined) {
    const after = decodeKey(scope, page.cursor);
    rest = sorted.filter((item) => direction * compareKeys(keyOf(item), after) > 0);
  }
  const data = rest.slice(0, page.limit);
  const last = data[data.length - 1];
  const hasMore = rest.length > page.limit;
  const result = { data, hasMore, totalCount: sorted.length };
  if (!hasMore || last === undefined) return result;
  return {
    ...result,
    nextCursor: Buffer.from(JSON.stringify([scope, ...keyOf(last)])).toString("base64url"),
  };
}

function decodeKey(scope: string, cursor: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length < 2 ||
    parsed[0] !== scope ||
    !parsed.every((part) => typeof part === "string")
  )
    throw invalidField("cursor", "is not a cursor returned by this list");
  return parsed.slice(1) as string[];
}
