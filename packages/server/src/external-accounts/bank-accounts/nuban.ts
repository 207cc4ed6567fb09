// NUBAN (Nigeria Uniform Bank Account Number), Central Bank of Nigeria, "Standards on Nigeria Uniform
// Bank Account Number (NUBAN) for Deposit Money Banks" (2010) and its 2020 revision: a 10-digit account
// is a 9-digit serial plus one check digit computed over the bank's CBN code and the serial. No maintained
// npm library implements it, so it is written here.

/** The CBN weights over bank code (3 digits) then serial (9 digits): 3, 7, 3 repeated. */
const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

/**
 * The NUBAN check digit of `serial` (9 digits) at the bank with 3-digit CBN code `bankCode`:
 * (10 − (Σ digitᵢ × weightᵢ mod 10)) mod 10. The 2020 revision pads a 3-digit code to 6 with `000` and
 * extends the weights by one more 3, 7, 3 at the front; the padding zeros add nothing, so it is the same sum.
 */
export function nubanCheckDigit(bankCode: string, serial: string): number {
  const digits = [...`${bankCode}${serial}`].map(Number);
  const sum = digits.reduce((total, digit, i) => total + digit * (WEIGHTS[i] ?? 0), 0);
  return (10 - (sum % 10)) % 10;
}

/**
 * Deposit money banks by CBN code, with the names customers write for them. Microfinance banks and other
 * institutions (6-digit codes) are not listed; their accounts are not checked (docs/decisions-corridor-accounts.md).
 */
const banks: { code: string; name: string; aliases: string[] }[] = [
  { code: "044", name: "Access Bank", aliases: ["access"] },
  { code: "063", name: "Access Bank (Diamond)", aliases: ["diamond", "access diamond"] },
  { code: "023", name: "Citibank Nigeria", aliases: ["citibank", "citi"] },
  { code: "050", name: "Ecobank Nigeria", aliases: ["ecobank"] },
  { code: "070", name: "Fidelity Bank", aliases: ["fidelity"] },
  { code: "011", name: "First Bank of Nigeria", aliases: ["first", "firstbank"] },
  { code: "214", name: "First City Monument Bank", aliases: ["first city monument", "fcmb"] },
  { code: "058", name: "Guaranty Trust Bank", aliases: ["guaranty trust", "gtbank", "gtb", "gtco"] },
  { code: "030", name: "Heritage Bank", aliases: ["heritage"] },
  { code: "301", name: "Jaiz Bank", aliases: ["jaiz"] },
  { code: "082", name: "Keystone Bank", aliases: ["keystone"] },
  { code: "076", name: "Polaris Bank", aliases: ["polaris", "skye"] },
  { code: "101", name: "Providus Bank", aliases: ["providus"] },
  { code: "221", name: "Stanbic IBTC Bank", aliases: ["stanbic ibtc", "stanbic"] },
  { code: "068", name: "Standard Chartered Bank", aliases: ["standard chartered"] },
  { code: "232", name: "Sterling Bank", aliases: ["sterling"] },
  { code: "100", name: "SunTrust Bank", aliases: ["suntrust"] },
  { code: "032", name: "Union Bank of Nigeria", aliases: ["union"] },
  { code: "033", name: "United Bank for Africa", aliases: ["united africa", "uba"] },
  { code: "215", name: "Unity Bank", aliases: ["unity"] },
  { code: "035", name: "Wema Bank", aliases: ["wema", "alat"] },
  { code: "057", name: "Zenith Bank", aliases: ["zenith"] },
];

const noise = new Set(["bank", "plc", "ltd", "limited", "nigeria", "of", "the", "for"]);

/** Lowercase words without punctuation or legal suffixes: "Zenith Bank PLC" → "zenith". */
function normalize(name: string): string {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "" && !noise.has(word))
    .join(" ");
}

const byName = new Map(
  banks.flatMap((bank) => [bank.name, ...bank.aliases].map((alias) => [normalize(alias), bank] as const)),
);

/** The deposit money bank `bankName` names, if it is one of the table's. */
export function nubanBank(bankName: string): { code: string; name: string } | undefined {
  return byName.get(normalize(bankName));
}
