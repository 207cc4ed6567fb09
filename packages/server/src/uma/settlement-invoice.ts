// The sandbox settlement layer's invoices (docs/guides/uma.md "Settlement"): a receiving VASP issues one
// per accepted pay request; paying it (POST <receiving VASP>/uma/sandbox/settle) settles the payment.
// Not BOLT11: nothing is routed over Lightning, and the form says so.

const PREFIX = "paysvc-sandbox-invoice";

export const sandboxInvoice = (paymentHash: string, amountMsats: number) =>
  `${PREFIX}:${paymentHash}:${amountMsats}`;

/** The payment hash and amount of a sandbox invoice; undefined for anything else. */
export function readSandboxInvoice(
  invoice: string,
): { paymentHash: string; amountMsats: number } | undefined {
  const match = /^paysvc-sandbox-invoice:([0-9a-f]{64}):(\d{1,18})$/.exec(invoice);
  if (!match) return undefined;
  return { paymentHash: match[1] as string, amountMsats: Number(match[2]) };
}
