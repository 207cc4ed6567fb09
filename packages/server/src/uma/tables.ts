import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { platforms } from "../platform/tables.js";

/**
 * Each platform's UMA VASP keys (docs/guides/uma.md; its domain is platforms.uma_domain): secp256k1 signing and
 * encryption keys, the private halves sealed (core/secrets), the public halves in certificate chains
 * served at `/.well-known/lnurlpubkey`. Created on first use.
 */
export const umaVasps = pgTable("uma_vasps", {
  platformId: text("platform_id")
    .primaryKey()
    .references(() => platforms.id),
  signingPrivateKey: text("signing_private_key").notNull(),
  encryptionPrivateKey: text("encryption_private_key").notNull(),
  /** PEM chains, leaf first: the leaf certifies the secp256k1 key, the root is the platform's own CA. */
  signingCertChain: text("signing_cert_chain").notNull(),
  encryptionCertChain: text("encryption_cert_chain").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
});

/** Nonces of signed UMA messages already accepted from a VASP: a replay is refused (INVALID_NONCE). */
export const umaNonces = pgTable(
  "uma_nonces",
  {
    /** `<domain> <nonce>`: nonces are unique per signing VASP. */
    id: text("id").primaryKey(),
    signedAt: timestamp("signed_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("uma_nonces_signed_at_idx").on(t.signedAt)],
);

/** A receiver lookup (`GET /receiver/uma/{address}`): what the receiving VASP answered, for the quote. */
export const umaLookups = pgTable(
  "uma_lookups",
  {
    id: text("id").primaryKey(),
    platformId: text("platform_id")
      .notNull()
      .references(() => platforms.id),
    customerId: text("customer_id"),
    receiverAddress: text("receiver_address").notNull(),
    senderAddress: text("sender_address"),
    /** The verified LNURLP response as received (JSON), and the receiving VASP's domain. */
    response: jsonb("response").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index("uma_lookups_platform_idx").on(t.platformId, t.createdAt)],
);
