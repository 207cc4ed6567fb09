import { isIP } from "node:net";
import { parseArgs } from "node:util";
import ipaddr from "ipaddr.js";
import { type Static, Type } from "typebox";
import { Value } from "typebox/value";
import { StatementSettings } from "./cli/statement.js";
import { DEFAULT_WALLET_VERIFICATION_THRESHOLD } from "./core/deps.js";
import { API_VERSION } from "./core/http/version.js";
import { MAX_AMOUNT } from "./core/money.js";

/** A UMA domain: a DNS name of two labels or more, the last one letters (as in `$name@domain.tld`), no port. */
const UMA_DOMAIN_PATTERN = "^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$";

const Settings = Type.Object({
  command: Type.Enum(["start", "migrate", "create-platform", "statement", "rotate-master-key"]),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  host: Type.String({ minLength: 1 }),
  databaseUrl: Type.Optional(Type.String({ pattern: "^postgres(ql)?://" })),
  mode: Type.Enum(["sandbox", "production"]),
  dataDir: Type.String({ minLength: 1 }),
  memory: Type.Boolean(),
  logLevel: Type.Enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]),
  settlementLagHours: Type.Number({ minimum: 0, maximum: 24 * 30 }),
  /** USD cents; payouts above it to wallets that are not ACTIVE need ownership verification first. */
  walletVerificationThreshold: Type.Integer({ minimum: 0, maximum: MAX_AMOUNT }),
  /** Sandbox platforms may send webhooks to loopback and private addresses (core/outbound). */
  allowPrivateTargets: Type.Boolean(),
  /** The service's public base URL for the links it makes (card reveal); default: the listen address. */
  publicUrl: Type.Optional(Type.String({ pattern: "^https?://[^/?#]+$" })),
  /**
   * UMA domains reached at another base URL than their own (PAYSVC_UMA_DOMAINS), for local development:
   * two paysvc processes on loopback paying each other (uma/counterparty.ts vaspBaseUrl).
   */
  umaDomains: Type.Optional(
    Type.Record(Type.String({ pattern: UMA_DOMAIN_PATTERN }), Type.String({ pattern: "^https?://" })),
  ),
  platformName: Type.String({ minLength: 1 }),
  environment: Type.Enum(["SANDBOX", "PRODUCTION"]),
  statement: Type.Optional(StatementSettings),
});
export type Settings = Static<typeof Settings>;

export const usage = `usage: paysvc <start|migrate|create-platform|statement|card-limits|daily-volume-limit|rotate-webhook-key|rotate-master-key> [options]
  start            run the API server (migrates first)
  migrate          apply pending migrations and exit
  create-platform  create a platform and print its API token (--name, --environment)
  statement        print one account's monthly statement, built through the API with the SDK:
                   --account <InternalAccount id> --month YYYY-MM [--format text|html|json]
                   [--url http://127.0.0.1:8080/2025-10-13] [--confirm] [--fee-lines] [--contact TEXT]
                   exit 2 when the statement fails its integrity checks (do not send it), 1 on other errors
  card-limits      set a platform's live-card caps (operator): --platform <Platform id>
                   --max-live-cards N [--per-cardholder N|none]; through the running server if one holds
                   the embedded directory, else on the database directly
  daily-volume-limit  set a platform's daily volume limit (operator): --platform <Platform id>
                   --limit <USD cents>; like card-limits
  rotate-webhook-key  rotate a platform's webhook signing key (operator): --platform <Platform id>;
                   like card-limits
  rotate-master-key  seal every private key and seed again under the current master key (a sandbox data
                   directory's own key is replaced); refused while a server holds the embedded directory
options:
  --port N         listen port (env PORT, default 8080)
  --host H         listen address (env HOST, default 127.0.0.1)
  --memory         throwaway in-memory embedded database
  --data-dir DIR   embedded database and credentials directory (env PAYSVC_DATA_DIR, default .paysvc)
  --mode M         sandbox | production (env PAYSVC_MODE, default sandbox)
environment:
  DATABASE_URL     postgres://… to use PostgreSQL instead of the embedded database
  PAYSVC_SETTLEMENT_LAG_HOURS  card settlement lag before a balance-changes window closes (default 72)
  PAYSVC_WALLET_VERIFICATION_THRESHOLD  USD cents; larger payouts to wallets not ACTIVE are refused (default 100000)
  PAYSVC_ALLOW_PRIVATE_TARGETS  true | false: sandbox platforms may send webhooks to loopback and private
                   addresses (default true when --host is a loopback address or localhost, else false)
  PAYSVC_PUBLIC_URL  the service's public base URL (scheme://host[:port]) for links it makes (card reveal);
                   default: the listen address
  PAYSVC_UMA_DOMAINS  UMA domains served at another address than their own, for local development:
                   domain=http://host:port[/path],… (e.g. two paysvc processes on loopback:
                   0123456789ab.localhost=http://127.0.0.1:8081/uma/0123456789ab.localhost); a domain not
                   listed is this service's own or is reached over HTTPS (docs/guides/uma.md)
  PAYSVC_URL       statement: the API base address (default http://127.0.0.1:8080/2025-10-13)
  PAYSVC_CLIENT_ID, PAYSVC_CLIENT_SECRET  statement: API token (default: <data dir>/credentials.json)
  PAYSVC_MASTER_KEY  master key sealing private keys and seeds at rest: 32 bytes as 64 hex digits or base64
                   (required in production; sandbox default: <data dir>/master.key, made 0600 at first start)
  PAYSVC_MASTER_KEY_FILE  a file holding it instead: one key a line, the current one first, older ones after
  PAYSVC_PREVIOUS_MASTER_KEYS  older master keys, comma-separated, that only open values during a rotation
  LOG_LEVEL        fatal | error | warn | info | debug | trace | silent (default info)`;

/** Parses argv and the environment once; an invalid setting fails fast with one readable message. */
export function parseSettings(argv: string[], env: NodeJS.ProcessEnv): Readonly<Settings> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      memory: { type: "boolean" },
      "data-dir": { type: "string" },
      mode: { type: "string" },
      name: { type: "string" },
      environment: { type: "string" },
      account: { type: "string" },
      month: { type: "string" },
      format: { type: "string" },
      url: { type: "string" },
      confirm: { type: "boolean" },
      "fee-lines": { type: "boolean" },
      contact: { type: "string" },
    },
  });
  const command = positionals[0] ?? "start";
  const host = values.host ?? env.HOST ?? "127.0.0.1";
  const candidate = {
    command,
    port: Number(values.port ?? env.PORT ?? 8080),
    host,
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    mode: values.mode ?? env.PAYSVC_MODE ?? "sandbox",
    dataDir: values["data-dir"] ?? env.PAYSVC_DATA_DIR ?? ".paysvc",
    memory: values.memory ?? false,
    logLevel: env.LOG_LEVEL ?? "info",
    settlementLagHours: Number(env.PAYSVC_SETTLEMENT_LAG_HOURS ?? 72),
    walletVerificationThreshold: Number(
      env.PAYSVC_WALLET_VERIFICATION_THRESHOLD ?? DEFAULT_WALLET_VERIFICATION_THRESHOLD,
    ),
    allowPrivateTargets: booleanSetting(env.PAYSVC_ALLOW_PRIVATE_TARGETS) ?? isLoopbackHost(host),
    ...(env.PAYSVC_PUBLIC_URL ? { publicUrl: env.PAYSVC_PUBLIC_URL.replace(/\/+$/, "") } : {}),
    ...(env.PAYSVC_UMA_DOMAINS?.trim() ? { umaDomains: umaDomainsSetting(env.PAYSVC_UMA_DOMAINS) } : {}),
    platformName: values.name ?? "Platform",
    environment: (values.environment ?? "SANDBOX").toUpperCase(),
    ...(command === "statement" ? { statement: statementCandidate(values, env) } : {}),
  };
  const errors = [...Value.Errors(Settings, candidate)];
  if (errors.length > 0) {
    const described = errors.map((e) => `${e.instancePath.slice(1) || "settings"} ${e.message}`).join("; ");
    throw new Error(`invalid configuration: ${described}\n${usage}`);
  }
  return Object.freeze(candidate as Settings);
}

/**
 * PAYSVC_UMA_DOMAINS: `domain=baseUrl` entries, comma-separated. Each domain is a DNS name without port
 * (matched against the domain of a UMA address, lowercased), each base URL an http(s) URL without
 * credentials, query or fragment; a domain given twice is refused. Empty entries are skipped.
 */
function umaDomainsSetting(value: string): Readonly<Record<string, string>> {
  const map: Record<string, string> = {};
  for (const entry of value.split(",").map((e) => e.trim())) {
    if (entry === "") continue;
    const equals = entry.indexOf("=");
    if (equals < 0) refuseUmaDomains(`entry "${entry}" is not domain=URL`);
    const domain = entry.slice(0, equals).trim().toLowerCase();
    const raw = entry.slice(equals + 1).trim();
    if (/:\d*$/.test(domain))
      refuseUmaDomains(`domain "${domain}" has a port: a UMA domain is a DNS name without port`);
    if (!new RegExp(UMA_DOMAIN_PATTERN).test(domain))
      refuseUmaDomains(`domain "${domain}" is not a DNS name like peer.localhost or pay.example.com`);
    if (Object.hasOwn(map, domain)) refuseUmaDomains(`names ${domain} twice`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      refuseUmaDomains(`URL "${raw}" of ${domain} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      refuseUmaDomains(`URL "${raw}" of ${domain} is not an http(s) URL`);
    if (url.username || url.password || raw.includes("?") || raw.includes("#"))
      refuseUmaDomains(`URL "${raw}" of ${domain} must have no credentials, query or fragment`);
    map[domain] = raw.replace(/\/+$/, "");
  }
  return Object.freeze(map);
}

function refuseUmaDomains(reason: string): never {
  throw new Error(`invalid configuration: PAYSVC_UMA_DOMAINS ${reason}\n${usage}`);
}

/** `true`/`false` (also 1/0, yes/no); anything else is returned as is, for the schema to refuse. */
function booleanSetting(value: string | undefined): boolean | string | undefined {
  if (value === undefined || value === "") return undefined;
  const text = value.trim().toLowerCase();
  if (["true", "1", "yes"].includes(text)) return true;
  if (["false", "0", "no"].includes(text)) return false;
  return value;
}

/**
 * Whether the service listens on loopback only: then whoever can reach it is on this machine, and
 * webhooks to this machine are how local development works (docs/decisions.md "Security (issue 16)").
 */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost") return true;
  return isIP(bare) !== 0 && ipaddr.process(bare).range() === "loopback";
}

function statementCandidate(
  values: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv,
): Record<string, unknown> {
  const missing = ["account", "month"].filter((flag) => typeof values[flag] !== "string");
  if (missing.length > 0) {
    throw new Error(
      `invalid configuration: statement needs ${missing.map((m) => `--${m}`).join(" and ")}\n${usage}`,
    );
  }
  const { PAYSVC_CLIENT_ID: clientId, PAYSVC_CLIENT_SECRET: clientSecret } = env;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new Error("invalid configuration: set both PAYSVC_CLIENT_ID and PAYSVC_CLIENT_SECRET, or neither");
  }
  return {
    account: values.account,
    month: values.month,
    format: values.format ?? "text",
    url: values.url ?? env.PAYSVC_URL ?? `http://127.0.0.1:8080/${API_VERSION}`,
    confirm: values.confirm ?? false,
    feesAsSeparateLines: values["fee-lines"] ?? false,
    ...(typeof values.contact === "string" ? { contact: values.contact } : {}),
    ...(clientId !== undefined && clientSecret !== undefined
      ? { credentials: { clientId, clientSecret } }
      : {}),
  };
}
