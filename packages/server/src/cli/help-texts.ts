/** The `paysvc` help texts beyond commander's own (cli/program.ts): each fits 80 columns. */

export const PROGRAM_NOTES = `
Exit status: 0 done, or help printed; 1 an error, or a command line that
cannot be parsed; 2 (statement) the statement failed its integrity check.

\`paysvc <command> --help\` shows a command's options; \`paysvc start --help\`
lists the environment variables.`;

export const START_ENVIRONMENT = `
Environment:
  DATABASE_URL
      postgres://user:password@host:5432/database: PostgreSQL instead of the
      embedded database
  PORT, HOST, PAYSVC_MODE, PAYSVC_DATA_DIR
      as --port, --host, --mode and --data-dir
  LOG_LEVEL
      fatal | error | warn | info | debug | trace | silent (default info)
  PAYSVC_SETTLEMENT_LAG_HOURS
      card settlement lag before a month's balance changes close (default 72)
  PAYSVC_WALLET_VERIFICATION_THRESHOLD
      USD cents; larger payouts to wallets not ACTIVE are refused (100000)
  PAYSVC_ALLOW_PRIVATE_TARGETS
      true | false: sandbox webhooks to loopback and private addresses
      (default true when --host is loopback or localhost)
  PAYSVC_PUBLIC_URL
      public base URL (scheme://host[:port]) for links the service makes
  PAYSVC_UMA_DOMAINS
      domain=http://host:port[/path],…: UMA domains at another address
  PAYSVC_MASTER_KEY, PAYSVC_MASTER_KEY_FILE, PAYSVC_PREVIOUS_MASTER_KEYS
      the master key for secrets at rest (required in production; sandbox
      default <data dir>/master.key), from a file, older keys in a rotation
  PAYSVC_DB_CONNECT_TIMEOUT_MS, PAYSVC_DB_STATEMENT_TIMEOUT_MS,
  PAYSVC_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS
      PostgreSQL timeouts (30000, 30000, 60000)

While it listens, the server writes its address and pid to
<data dir>/server.json, and removes it when it stops: \`paysvc statement\`
finds the server there.

Example:
  PORT=8081 paysvc start --data-dir .paysvc`;

export const STATEMENT_NOTES = `
The server: --url, else PAYSVC_URL, else the one that wrote
<data dir>/server.json, else http://127.0.0.1:8080/2025-10-13.
Credentials: PAYSVC_CLIENT_ID and PAYSVC_CLIENT_SECRET, else
<data dir>/credentials.json. A month whose card settlement closes within
120 s is waited for. The statement goes to stdout; progress and errors go to
stderr.

Exit status: 0 printed (and confirmed); 1 an error; 2 the statement failed its
integrity check: do not send it, contact support.

Example:
  paysvc statement --account InternalAccount:… --month 2026-11 --confirm`;

export const LISTEN_NOTES = `
Receives the platform's events on a local address that it sets as the
platform's webhook endpoint (PATCH /config), forwards each to --forward-to with
its headers and exact body (X-Service-Signature still verifies), and prints
its type, payload and the receiver's status on stdout. paysvc sees the
receiver's status, so failed deliveries are retried as usual. Ctrl-C puts the
previous endpoint back.

Example:
  paysvc listen --forward-to http://127.0.0.1:3000/webhooks`;

export const OPERATOR_NOTES = `
Operator only (no API token). Works on DATABASE_URL, or on the embedded
database in --data-dir; when a running server holds that directory, the
change goes through that server's operator API.`;

export const SEED_NOTES = `
Through the running server's API, with sandbox skip-paperwork turned on:
Ada Lovelace (platformCustomerId seed-ada) with a USD account, a virtual card
and a month of activity (deposits, transfers, card purchases), and Grace
Hopper (seed-grace) with a USD account. The activity fills the platform's
next America/Chicago month: the sandbox clock is moved to it, day by day.
A sandbox that already holds seed-ada is refused (paysvc sandbox reset).

Prints NAME=value lines a shell can take in (eval "$(paysvc seed)"):
CUSTOMER, USD, CARD (Ada's), CUSTOMER2, USD2 (Grace's), MONTH (YYYY-MM) and
MONTH_CLOSED_AT (a time after that month's card settlement closes, at the
default 72 h lag); --json prints the same as one JSON object.`;

export const LOGS_NOTES = `
Follows the API requests of the token's platform as the server answers them
(GET /sandbox/request-log): time, method, path, status, latency and request
id, never a query string, header or body. Sandbox only; it shows the requests
the server it asks has answered since it started (its last 1000). Ctrl-C stops.

Example:
  paysvc logs tail --status 4xx,5xx --path /customers`;

export const RESET_NOTES = `
Removes the embedded database and credentials.json of the data directory, so
the next start creates a new sandbox platform and API token (the master key
stays). Refused while a server holds the directory (stop it first), on
PostgreSQL (DATABASE_URL), in production mode, and when the database holds a
production platform. Asks for confirmation unless --yes.`;
