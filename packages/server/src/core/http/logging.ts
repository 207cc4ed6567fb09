/** Log fields never written in clear: credentials, secrets and wallet signatures. */
export const logRedactPaths = [
  "req.headers.authorization",
  'req.headers["service-wallet-signature"]',
  "headers.authorization",
  "*.clientSecret",
  "*.secret",
  "*.password",
  "*.threeDSecurePassword",
  "*.pin",
];
