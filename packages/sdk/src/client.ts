import { RequestSender } from "./core/request.js";
import { AgentsResource } from "./resources/agents.js";
import { CardsResource } from "./resources/cards.js";
import { ConfigResource } from "./resources/config.js";
import { CryptoResource } from "./resources/crypto.js";
import { CustomersResource } from "./resources/customers.js";
import { DiscoveriesResource } from "./resources/discoveries.js";
import { EventsResource } from "./resources/events.js";
import { ExchangeRatesResource } from "./resources/exchange-rates.js";
import {
  type CustomerExternalAccountsResource,
  ExternalAccountsResource,
  type PlatformExternalAccountsResource,
} from "./resources/external-accounts.js";
import { InternalAccountsResource } from "./resources/internal-accounts.js";
import { InvitationsResource } from "./resources/invitations.js";
import { BeneficialOwnersResource, VerificationsResource } from "./resources/kyc.js";
import { QuotesResource } from "./resources/quotes.js";
import { SandboxResource } from "./resources/sandbox.js";
import { ScaResource } from "./resources/sca.js";
import { StablecoinsResource } from "./resources/stablecoins.js";
import { StatementsResource } from "./resources/statements.js";
import { TokensResource } from "./resources/tokens.js";
import { TransactionsResource } from "./resources/transactions.js";
import { ReceiverResource, UmaProvidersResource, VaspsResource } from "./resources/uma.js";
import { WalletResource } from "./wallet/resource.js";
import { WebhooksResource } from "./webhooks/resource.js";

export interface PaysvcClientOptions {
  /** The API base address including the version segment, e.g. `http://127.0.0.1:8080/2025-10-13`. */
  baseUrl: string;
  /** The API token's `clientId` (HTTP Basic username). */
  clientId: string;
  /** The API token's `clientSecret` (HTTP Basic password). */
  clientSecret: string;
  /** Retries after the first attempt, for failures that are safe to repeat (see `retryDelayMs`). Default 2. */
  maxRetries?: number;
  /** Time allowed for each attempt, response body included. Default 30 000 ms. */
  timeoutMs?: number;
  /** A `fetch` implementation; defaults to the global one (Node ≥ 20, browsers, Deno, Bun). */
  fetch?: typeof fetch;
  /**
   * The clock server expiry times are compared with (the `exchangeRates` cache); default the system clock.
   * A sandbox platform whose clock was advanced passes its sandbox time.
   */
  now?: () => Date;
}

const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_TIMEOUT_MS = 30_000;

function check(condition: boolean, message: string): void {
  if (!condition) throw new TypeError(`PaysvcClient: ${message}`);
}

/**
 * The paysvc API client: one namespace per area. Results are the response bodies with a non-enumerable
 * `lastResponse.requestId`; failures reject with a `PaysvcError` subclass carrying `requestId`.
 *
 *     const paysvc = new PaysvcClient({ baseUrl, clientId, clientSecret });
 *     const customer = await paysvc.customers.create({ customerType: "INDIVIDUAL" });
 */
export class PaysvcClient {
  readonly customers: CustomersResource;
  readonly internalAccounts: InternalAccountsResource;
  /** Customers' bank accounts and wallets, and ownership verification of self-custody wallets. */
  readonly externalAccounts: CustomerExternalAccountsResource;
  /** The platform's own external accounts: the same methods as `externalAccounts`. */
  readonly platformExternalAccounts: PlatformExternalAccountsResource;
  /** Virtual cards; their transactions are `type: "CARD"` rows of `transactions`. */
  readonly cards: CardsResource;
  readonly tokens: TokensResource;
  readonly config: ConfigResource;
  readonly transactions: TransactionsResource;
  readonly quotes: QuotesResource;
  readonly crypto: CryptoResource;
  readonly discoveries: DiscoveriesResource;
  readonly statements: StatementsResource;
  readonly sandbox: SandboxResource;
  /** Signing keys, the delivery log and re-send (verification: the client of `@paysvc/sdk/node`). */
  readonly webhooks: WebhooksResource;
  /** The webhook events the platform's work raised, with their envelopes (`GET /events`). */
  readonly events: EventsResource;
  /** Embedded wallet authentication: logins, credentials, sessions, export and any signed action (`signedRetry`). */
  readonly wallet: WalletResource;
  /** Stablecoin registration, enablement, provider accounts, mints and burns. */
  readonly stablecoins: StablecoinsResource;
  /** Agents acting for a customer under a policy; approve their payments with `transactions.approve`. */
  readonly agents: AgentsResource;
  /** Strong customer authentication (EEA, UK): login sessions, payment challenges, contact verification, trusted beneficiaries. */
  readonly sca: ScaResource;
  readonly invitations: InvitationsResource;
  /** The owners of BUSINESS customers, checked by their verification. */
  readonly beneficialOwners: BeneficialOwnersResource;
  /** KYC/KYB submissions and the hosted verification link (`createKycLink`). */
  readonly verifications: VerificationsResource;
  /** Exchange rates, served from a local cache until their `expiresAt`. */
  readonly exchangeRates: ExchangeRatesResource;
  /** Receivers to pay: `lookupUma` checks a UMA address with its VASP and answers a `lookupId`. */
  readonly receiver: ReceiverResource;
  /** The UMA providers this deployment knows. */
  readonly umaProviders: UmaProvidersResource;
  /** The VASPs this deployment knows, with the base URL of their UMA endpoints. */
  readonly vasps: VaspsResource;

  constructor(options: PaysvcClientOptions) {
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const fetchImpl = options.fetch ?? globalThis.fetch;
    check(
      typeof options.baseUrl === "string" && /^https?:\/\//.test(options.baseUrl),
      "baseUrl must be an http(s) URL",
    );
    check(typeof options.clientId === "string" && options.clientId !== "", "clientId is required");
    check(
      typeof options.clientSecret === "string" && options.clientSecret !== "",
      "clientSecret is required",
    );
    check(Number.isInteger(maxRetries) && maxRetries >= 0, "maxRetries must be an integer ≥ 0");
    check(Number.isFinite(timeoutMs) && timeoutMs > 0, "timeoutMs must be a positive number");
    check(typeof fetchImpl === "function", "no fetch available; pass options.fetch");
    check(options.now === undefined || typeof options.now === "function", "now must be a function");
    const sender = new RequestSender({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      maxRetries,
      timeoutMs,
      fetch: fetchImpl,
    });
    this.customers = new CustomersResource(sender);
    this.internalAccounts = new InternalAccountsResource(sender);
    this.externalAccounts = new ExternalAccountsResource(sender, "customer");
    this.platformExternalAccounts = new ExternalAccountsResource(sender, "platform");
    this.cards = new CardsResource(sender);
    this.tokens = new TokensResource(sender);
    this.config = new ConfigResource(sender);
    this.transactions = new TransactionsResource(sender);
    this.quotes = new QuotesResource(sender);
    this.crypto = new CryptoResource(sender);
    this.discoveries = new DiscoveriesResource(sender);
    this.statements = new StatementsResource(sender, this.internalAccounts, this.transactions);
    this.sandbox = new SandboxResource(sender);
    this.webhooks = this.webhooksResource(sender);
    this.events = new EventsResource(sender);
    this.wallet = new WalletResource(sender);
    this.stablecoins = new StablecoinsResource(sender);
    this.agents = new AgentsResource(sender);
    this.sca = new ScaResource(sender);
    this.invitations = new InvitationsResource(sender);
    this.beneficialOwners = new BeneficialOwnersResource(sender);
    this.verifications = new VerificationsResource(sender);
    this.exchangeRates = new ExchangeRatesResource(sender, options.now ?? (() => new Date()));
    this.receiver = new ReceiverResource(sender);
    this.umaProviders = new UmaProvidersResource(sender);
    this.vasps = new VaspsResource(sender);
  }

  /** The `webhooks` namespace: `@paysvc/sdk/node`'s client answers one that also verifies deliveries. */
  protected webhooksResource(sender: RequestSender): WebhooksResource {
    return new WebhooksResource(sender);
  }
}
