// The sandbox counterparty VASP (docs/guides/uma.md "Sandbox counterparty"): a UMA VASP built into
// every sandbox paysvc, at documented domains whose keys misbehave on purpose, so a platform can produce
// each lookup failure without a second service.

export const SANDBOX_COUNTERPARTY_DOMAIN = "counterparty.sandbox.localhost";

/** How the counterparty publishes its keys, by the subdomain the address names. */
export type KeyBehaviour = "VALID" | "EXPIRED_CERT" | "INVALID_CERT" | "BAD_PUBKEY" | "NO_PUBKEY";

const subdomains: Readonly<Record<string, KeyBehaviour>> = {
  "": "VALID",
  "expired-cert.": "EXPIRED_CERT",
  "invalid-cert.": "INVALID_CERT",
  "bad-pubkey.": "BAD_PUBKEY",
  "no-pubkey.": "NO_PUBKEY",
};

/** The key behaviour of a counterparty domain; undefined for any other domain. */
export function counterpartyKeyBehaviour(domain: string): KeyBehaviour | undefined {
  if (!domain.endsWith(SANDBOX_COUNTERPARTY_DOMAIN)) return undefined;
  return subdomains[domain.slice(0, -SANDBOX_COUNTERPARTY_DOMAIN.length)];
}

export const isSandboxCounterpartyDomain = (domain: string) => counterpartyKeyBehaviour(domain) !== undefined;
