import { type Static, Type } from "typebox";
import { Query } from "../core/http/pagination.js";

export const DiscoveryQuery = Query({
  country: Type.Optional(Type.String({ pattern: "^[A-Z]{2}$", description: "ISO 3166-1 alpha-2" })),
  currency: Type.Optional(Type.String({ pattern: "^[A-Z]{3,4}$", description: "ISO 4217 code" })),
});
export type DiscoveryQuery = Static<typeof DiscoveryQuery>;

/** A receiving institution of a corridor (the hosted DiscoveryListResponse item, plus its rails). */
export const Discovery = Type.Object({
  bankName: Type.String(),
  displayName: Type.String(),
  country: Type.String(),
  currency: Type.String(),
  /** The rails of the corridor that reach this country, in order of preference (a paysvc addition). */
  paymentRails: Type.Array(Type.String()),
});
export type Discovery = Static<typeof Discovery>;

export const DiscoveryList = Type.Object({ data: Type.Array(Discovery) });
export type DiscoveryList = Static<typeof DiscoveryList>;
