import { PaysvcClient } from "@paysvc/sdk";
import { type ApiCredentials, type CommandIo, credentialsFor, describeApiFailure, serverFor } from "./api.js";

/** What `paysvc trigger` needs: the event type, and where the server and the API token are. */
export interface TriggerCommand {
  eventType: string;
  url?: string | undefined;
  dataDir: string;
  credentials?: ApiCredentials | undefined;
}

type Say = (line: string) => void;

/** A new sandbox customer's USD account, funded with `amount` cents (INCOMING_PAYMENT.COMPLETED). */
async function fundedAccount(client: PaysvcClient, name: string, amount: number, say: Say): Promise<string> {
  // Sending money needs the end-user terms accepted: the current version, at the platform's time.
  const [terms, clock] = await Promise.all([client.customers.getEndUserTerms(), client.sandbox.getClock()]);
  const customer = await client.customers.create({
    customerType: "INDIVIDUAL",
    fullName: name,
    agreementConsents: [
      {
        type: "SERVICE_END_USER_TERMS",
        termsVersion: terms.version,
        acceptedAt: clock.now,
        ipAddress: "127.0.0.1",
      },
    ],
  });
  const accounts = await client.internalAccounts.listForCustomers({
    customerId: customer.id,
    currency: "USD",
  });
  const account = accounts.data[0];
  if (!account) throw new Error(`customer ${customer.id} has no USD account`);
  say(`created customer ${customer.id} with USD account ${account.id}`);
  if (amount > 0) {
    await client.sandbox.fund(account.id, amount);
    say(`funded ${account.id} with ${amount} cents (POST /sandbox/internal-accounts/{id}/fund)`);
  }
  return account.id;
}

/** A same-currency transfer between two new customers, executed at once (OUTGOING_PAYMENT.*). */
async function transfer(client: PaysvcClient, say: Say): Promise<void> {
  const from = await fundedAccount(client, "Trigger Sender", 10_000, say);
  const to = await fundedAccount(client, "Trigger Receiver", 0, say);
  const quote = await client.quotes.create({
    source: { sourceType: "ACCOUNT", accountId: from },
    destination: { destinationType: "ACCOUNT", accountId: to },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: 2_500,
    immediatelyExecute: true,
  });
  say(`sent 2500 cents from ${from} to ${to} (POST /quotes with immediatelyExecute: ${quote.id})`);
}

/**
 * The sandbox simulation behind each event type `paysvc trigger` produces: the same calls a platform would
 * make, through the SDK. Each produces its event (and possibly others) on the platform of the API token.
 */
export const TRIGGERS: Readonly<
  Record<string, { does: string; run: (client: PaysvcClient, say: Say) => Promise<void> }>
> = {
  "INTERNAL_ACCOUNT.BALANCE_UPDATED": {
    does: "a new customer's USD account is funded (sandbox fund)",
    run: async (client, say) => void (await fundedAccount(client, "Trigger Customer", 1_000, say)),
  },
  "INCOMING_PAYMENT.COMPLETED": {
    does: "a new customer's USD account is funded (sandbox fund)",
    run: async (client, say) => void (await fundedAccount(client, "Trigger Customer", 1_000, say)),
  },
  "OUTGOING_PAYMENT.COMPLETED": {
    does: "a same-currency transfer between two new customers, executed at once",
    run: transfer,
  },
};

/** `paysvc trigger --help`: each event type with the simulation that produces it. */
export const triggerHelp = (): string =>
  `\nEvent types:\n${Object.entries(TRIGGERS)
    .map(([type, { does }]) => `  ${type}\n      ${does}`)
    .join("\n")}`;

/**
 * `paysvc trigger EVENT_TYPE`: runs the sandbox simulation that produces that event on the token's
 * platform, saying each step on stderr. Exit 0 done; 1 an unknown event type or a failed call.
 */
export async function runTriggerCommand(command: TriggerCommand, io: CommandIo): Promise<number> {
  const trigger = TRIGGERS[command.eventType];
  if (!trigger) {
    io.stderr.write(
      `paysvc trigger: no simulation produces ${command.eventType}; one of: ${Object.keys(TRIGGERS).join(", ")}\n`,
    );
    return 1;
  }
  const credentials = await credentialsFor(command.dataDir, command.credentials);
  if (typeof credentials === "string") {
    io.stderr.write(`paysvc trigger: no API credentials: ${credentials}\n`);
    return 1;
  }
  const server = await serverFor("trigger", command.url, command.dataDir, io);
  const say: Say = (line) => io.stderr.write(`paysvc trigger: ${line}\n`);
  try {
    await trigger.run(new PaysvcClient({ baseUrl: server.url, ...credentials }), say);
    io.stdout.write(`triggered ${command.eventType}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`paysvc trigger: ${describeApiFailure(error, server)}\n`);
    return 1;
  }
}
