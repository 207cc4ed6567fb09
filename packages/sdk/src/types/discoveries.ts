/** A bank or wallet provider a payout can reach (`GET /discoveries`), with the corridor's rails into its country. */
export interface Discovery {
  bankName: string;
  displayName: string;
  country: string;
  currency: string;
  paymentRails: string[];
}
