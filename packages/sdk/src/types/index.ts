/**
 * Wire types of the paysvc API (version 2025-10-13). Each interface mirrors the server's TypeBox schema of
 * the same name (packages/server/src/<area>/schemas.ts) field for field, optional where the schema says
 * `Type.Optional`. They are written out rather than derived so the published SDK carries no dependency on
 * the server or on TypeBox.
 *
 * This file only re-exports: the per-area files import `common.ts` (and each other), never this aggregate,
 * so the types form no import circle.
 */
export type * from "./agents.js";
export type * from "./cards.js";
export type * from "./common.js";
export type * from "./crypto.js";
export type * from "./customers.js";
export type * from "./discoveries.js";
export type * from "./events.js";
export type * from "./exchange-rates.js";
export type * from "./external-accounts.js";
export type * from "./internal-accounts.js";
export type * from "./invitations.js";
export type * from "./kyc.js";
export type * from "./ledger.js";
export type * from "./platform.js";
export type * from "./quotes.js";
export type * from "./sca.js";
export type * from "./stablecoins.js";
export type * from "./tokens.js";
export type * from "./uma.js";
