import { ApiError } from "./errors/api-error.js";

/** Currency metadata as the wire's Currency object (conventions §1.4). */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

export interface CurrencyAmount {
  amount: number;
  currency: Currency;
}

/** Largest absolute amount accepted anywhere: exact in a JavaScript number (conventions §1.4). */
export const MAX_AMOUNT = 9_000_000_000_000_000;

const currencies: Record<string, Currency & { fiat: boolean }> = {
  USD: { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2, fiat: true },
  EUR: { code: "EUR", name: "Euro", symbol: "€", decimals: 2, fiat: true },
  GBP: { code: "GBP", name: "British Pound", symbol: "£", decimals: 2, fiat: true },
  MXN: { code: "MXN", name: "Mexican Peso", symbol: "$", decimals: 2, fiat: true },
  BRL: { code: "BRL", name: "Brazilian Real", symbol: "R$", decimals: 2, fiat: true },
  COP: { code: "COP", name: "Colombian Peso", symbol: "$", decimals: 2, fiat: true },
  INR: { code: "INR", name: "Indian Rupee", symbol: "₹", decimals: 2, fiat: true },
  PHP: { code: "PHP", name: "Philippine Peso", symbol: "₱", decimals: 2, fiat: true },
  SGD: { code: "SGD", name: "Singapore Dollar", symbol: "S$", decimals: 2, fiat: true },
  // Payout corridors (issue 18): ISO 4217 minor units.
  AED: { code: "AED", name: "UAE Dirham", symbol: "د.إ", decimals: 2, fiat: true },
  BDT: { code: "BDT", name: "Bangladeshi Taka", symbol: "৳", decimals: 2, fiat: true },
  BWP: { code: "BWP", name: "Botswana Pula", symbol: "P", decimals: 2, fiat: true },
  CAD: { code: "CAD", name: "Canadian Dollar", symbol: "$", decimals: 2, fiat: true },
  CNY: { code: "CNY", name: "Chinese Yuan", symbol: "¥", decimals: 2, fiat: true },
  DKK: { code: "DKK", name: "Danish Krone", symbol: "kr", decimals: 2, fiat: true },
  EGP: { code: "EGP", name: "Egyptian Pound", symbol: "E£", decimals: 2, fiat: true },
  GHS: { code: "GHS", name: "Ghanaian Cedi", symbol: "₵", decimals: 2, fiat: true },
  GTQ: { code: "GTQ", name: "Guatemalan Quetzal", symbol: "Q", decimals: 2, fiat: true },
  HKD: { code: "HKD", name: "Hong Kong Dollar", symbol: "HK$", decimals: 2, fiat: true },
  HTG: { code: "HTG", name: "Haitian Gourde", symbol: "G", decimals: 2, fiat: true },
  IDR: { code: "IDR", name: "Indonesian Rupiah", symbol: "Rp", decimals: 2, fiat: true },
  JMD: { code: "JMD", name: "Jamaican Dollar", symbol: "J$", decimals: 2, fiat: true },
  KES: { code: "KES", name: "Kenyan Shilling", symbol: "KSh", decimals: 2, fiat: true },
  MWK: { code: "MWK", name: "Malawian Kwacha", symbol: "MK", decimals: 2, fiat: true },
  MYR: { code: "MYR", name: "Malaysian Ringgit", symbol: "RM", decimals: 2, fiat: true },
  NGN: { code: "NGN", name: "Nigerian Naira", symbol: "₦", decimals: 2, fiat: true },
  PKR: { code: "PKR", name: "Pakistani Rupee", symbol: "₨", decimals: 2, fiat: true },
  RWF: { code: "RWF", name: "Rwandan Franc", symbol: "FRw", decimals: 0, fiat: true },
  THB: { code: "THB", name: "Thai Baht", symbol: "฿", decimals: 2, fiat: true },
  TZS: { code: "TZS", name: "Tanzanian Shilling", symbol: "TSh", decimals: 2, fiat: true },
  UGX: { code: "UGX", name: "Ugandan Shilling", symbol: "USh", decimals: 0, fiat: true },
  VND: { code: "VND", name: "Vietnamese Dong", symbol: "₫", decimals: 0, fiat: true },
  XAF: { code: "XAF", name: "Central African CFA Franc", symbol: "FCFA", decimals: 0, fiat: true },
  XOF: { code: "XOF", name: "West African CFA Franc", symbol: "CFA", decimals: 0, fiat: true },
  ZAR: { code: "ZAR", name: "South African Rand", symbol: "R", decimals: 2, fiat: true },
  ZMW: { code: "ZMW", name: "Zambian Kwacha", symbol: "ZK", decimals: 2, fiat: true },
  USDC: { code: "USDC", name: "USD Coin", symbol: "USDC", decimals: 6, fiat: false },
  USDT: { code: "USDT", name: "Tether USD", symbol: "USDT", decimals: 6, fiat: false },
  USDB: { code: "USDB", name: "USDB", symbol: "USDB", decimals: 6, fiat: false },
  BTC: { code: "BTC", name: "Bitcoin", symbol: "₿", decimals: 8, fiat: false },
};

export const currencyCodes = Object.keys(currencies);

export function isKnownCurrency(code: string): boolean {
  return Object.hasOwn(currencies, code);
}

export function isFiat(code: string): boolean {
  return currencies[code]?.fiat === true;
}

/** The wire Currency for a code; an unknown code is `400 INVALID_CURRENCY`. */
export function currency(code: string): Currency {
  const found = currencies[code];
  if (!found) throw new ApiError("INVALID_CURRENCY", { reason: `Unknown currency ${code}.` });
  const { fiat: _fiat, ...wire } = found;
  return wire;
}

/** Builds a CurrencyAmount, refusing anything that is not an exact integer within the bound. */
export function money(amount: number, code: string): CurrencyAmount {
  assertMinorUnits(amount);
  return { amount, currency: currency(code) };
}

export function assertMinorUnits(amount: number): void {
  if (!Number.isSafeInteger(amount) || Math.abs(amount) > MAX_AMOUNT) {
    throw new RangeError(`amount ${amount} is not an integer count of minor units within ±${MAX_AMOUNT}`);
  }
}

/** Parses an int8 column value (a bigint or a decimal string, depending on the driver) to an exact number. */
export function parseMinorUnits(value: unknown): number {
  const parsed =
    typeof value === "bigint" ? Number(value) : typeof value === "string" ? Number(value) : value;
  if (typeof parsed !== "number" || !Number.isSafeInteger(parsed)) {
    throw new RangeError(`database amount ${String(value)} is not a safe integer`);
  }
  return parsed;
}
