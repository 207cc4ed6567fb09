import { createHmac } from "node:crypto";

// Sandbox cards never store a PAN: it is derived from the card id under a fixed key, with a test BIN
// (Visa 4000 00) and a valid Luhn digit, so the reveal page and tokenization always show the same number.
const SANDBOX_PAN_KEY = "paysvc sandbox PAN derivation v1";
const SANDBOX_BIN = "400000";

function luhnCheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let digit = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/** The sandbox card number of a card: 16 digits, Luhn-valid. */
export function sandboxPan(cardId: string): string {
  const digest = createHmac("sha256", SANDBOX_PAN_KEY).update(cardId).digest();
  const account = (digest.readBigUInt64BE(0) % 1_000_000_000n).toString().padStart(9, "0");
  const body = `${SANDBOX_BIN}${account}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** The 3-digit sandbox security code of a card. */
export function sandboxCvv(cardId: string): string {
  const digest = createHmac("sha256", SANDBOX_PAN_KEY).update(`cvv:${cardId}`).digest();
  return String(digest.readUInt16BE(0) % 1000).padStart(3, "0");
}

export function isLuhnValid(pan: string): boolean {
  return /^\d{12,19}$/.test(pan) && luhnCheckDigit(pan.slice(0, -1)) === pan.slice(-1);
}
