import { createRequire } from "node:module";
import { clabe } from "clabe-validator";
import { composeIBAN } from "ibantools";

type UkModulusCheck = new (input: { accountNumber: string; sortCode: string }) => { isValid(): boolean };
const UkModulusChecking = createRequire(import.meta.url)("uk-modulus-checking") as UkModulusCheck;

/** Marks a field to leave out of an example (a required field missing). */
export const MISSING = Symbol("missing");

/** One bank account type: a valid example, one invalid value per field, and examples by sandbox suffix. */
export interface Corridor {
  accountType: string;
  currency: string;
  /** A valid `accountInfo` without `accountType` and `beneficiary` (added by accountInfo()). */
  info: Record<string, unknown>;
  /** Overrides of the default beneficiary (the per-currency INDIVIDUAL rules). */
  beneficiary?: Record<string, unknown>;
  /** [field of accountInfo (`beneficiary.x` for nested) or `currency`, invalid value or MISSING, the rule]. */
  invalid: [string, unknown, string][];
  /** Valid details whose sandbox number ends in `suffix`. */
  withSuffix: (suffix: string) => Record<string, unknown>;
}

export const defaultBeneficiary = {
  beneficiaryType: "INDIVIDUAL",
  fullName: "Ada Lovelace",
  countryOfResidence: "GB",
};
export const address = { line1: "1 Main Street", postalCode: "00000", country: "AE" };

export const iban = (countryCode: string, bban: string) => {
  const composed = composeIBAN({ countryCode, bban });
  if (!composed) throw new Error(`no IBAN for ${countryCode} ${bban}`);
  return composed;
};

/** A CLABE of Banamex whose last three characters are `suffix` (the last one is the check digit). */
export function clabeEnding(suffix: string): string {
  for (let n = 0; n < 100_000; n++) {
    const first17 = `0020100${String(n).padStart(8, "0")}${suffix.slice(0, 2)}`;
    if (String(clabe.computeChecksum(first17)) === suffix[2]) return `${first17}${suffix[2]}`;
  }
  throw new Error(`no CLABE ends in ${suffix}`);
}

/** An account at sort code 089999 passing the Vocalink modulus check, ending in `suffix`. */
export function ukAccountEnding(suffix: string): string {
  for (let n = 10_000; n < 100_000; n++) {
    const accountNumber = `${n}${suffix}`;
    if (new UkModulusChecking({ accountNumber, sortCode: "089999" }).isValid()) return accountNumber;
  }
  throw new Error(`no UK account ends in ${suffix}`);
}

/** A Zenith Bank (CBN 057) NUBAN ending in `suffix`: CBN weights 3,7,3… over code and serial. */
export function nubanEnding(suffix: string): string {
  const weights = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];
  for (let n = 0; n < 10_000_000; n++) {
    const serial = `${String(n).padStart(7, "0")}${suffix.slice(0, 2)}`;
    const sum = [...`057${serial}`].reduce((total, d, i) => total + Number(d) * (weights[i] ?? 0), 0);
    if (String((10 - (sum % 10)) % 10) === suffix[2]) return `${serial}${suffix[2]}`;
  }
  throw new Error(`no NUBAN ends in ${suffix}`);
}

export const phoneEnding = (valid: string) => (suffix: string) => ({
  phoneNumber: `${valid.slice(0, -3)}${suffix}`,
});
export const accountEnding = (valid: string) => (suffix: string) => ({
  accountNumber: `${valid.slice(0, -3)}${suffix}`,
});

/** A mobile money corridor: a valid mobile number, a fixed line of the same country (refused). */
export const mobileMoney = (
  accountType: string,
  currency: string,
  mobile: string,
  fixedLine: string,
  extra: Record<string, unknown> = {},
): Corridor => ({
  accountType,
  currency,
  info: { phoneNumber: mobile, provider: "Mobile Money Co", ...extra },
  invalid: [
    ["phoneNumber", fixedLine, "a fixed line cannot hold mobile money"],
    ["provider", "", "provider is 1..255 characters"],
  ],
  withSuffix: phoneEnding(mobile),
});

/** The `accountInfo` of a corridor example, with the default beneficiary and `overrides` applied. */
export function accountInfo(corridor: Corridor, overrides: Record<string, unknown> = {}) {
  return {
    accountType: corridor.accountType,
    ...corridor.info,
    beneficiary: { ...defaultBeneficiary, ...corridor.beneficiary },
    ...overrides,
  };
}

/** Sets `path` (dot notation inside `target`) to `value`, or deletes it for MISSING. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  const last = keys.pop() as string;
  let node = target;
  for (const key of keys) {
    node[key] = { ...(node[key] as Record<string, unknown>) };
    node = node[key] as Record<string, unknown>;
  }
  if (value === MISSING) delete node[last];
  else node[last] = value;
}
