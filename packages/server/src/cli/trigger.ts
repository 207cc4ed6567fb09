import { PaysvcClient } from "@paysvc/sdk";
import { EVENT_TYPES } from "../webhooks/outbox.js";
import { type ApiCredentials, type CommandIo, credentialsFor, describeApiFailure, serverFor } from "./api.js";
import {
  authorize,
  cardholderWithCard,
  newCustomer,
  type Sandbox,
  type Say,
  sandboxPost,
  waitUntil,
  withSkipPaperwork,
} from "./sandbox-fixtures.js";

/** What `paysvc trigger` needs: the event type, and where the server and the API token are. */
export interface TriggerCommand {
  eventType: string;
  url?: string | undefined;
  dataDir: string;
  credentials?: ApiCredentials | undefined;
}

/** A new sandbox customer's USD account, funded with `amount` cents (INCOMING_PAYMENT.COMPLETED). */
async function fundedAccount(client: PaysvcClient, name: string, amount: number, say: Say): Promise<string> {
  const { customerId, accountId } = await newCustomer(client, name);
  say(`created customer ${customerId} with USD account ${accountId}`);
  if (amount > 0) {
    await client.sandbox.fund(accountId, amount);
    say(`funded ${accountId} with ${amount} cents (POST /sandbox/internal-accounts/{id}/fund)`);
  }
  return accountId;
}

/** A same-currency transfer between two new customers, executed at once (OUTGOING_PAYMENT.*). */
async function transfer({ client }: Sandbox, say: Say): Promise<void> {
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

/** A settled ACH deposit of 5,000 cents on a new customer's account: its transaction's id. */
async function achDeposit(sandbox: Sandbox, say: Say): Promise<string> {
  const account = await fundedAccount(sandbox.client, "Trigger Depositor", 0, say);
  const deposit = await sandboxPost<{ id: string }>(
    sandbox,
    `/sandbox/internal-accounts/${encodeURIComponent(account)}/ach-deposit`,
    { amount: 5_000 },
  );
  say(`deposited 5000 cents by ACH: ${deposit.id} (POST /sandbox/internal-accounts/{id}/ach-deposit)`);
  return deposit.id;
}

/** An ACH deposit refunded with `outcome` (REFUND_PENDING, then REFUND_COMPLETED or REFUND_FAILED). */
const refund = (outcome: "COMPLETED" | "FAILED") => async (sandbox: Sandbox, say: Say) => {
  const transactionId = await achDeposit(sandbox, say);
  await sandboxPost(sandbox, `/sandbox/transactions/${encodeURIComponent(transactionId)}/refund`, {
    outcome,
  });
  say(`refunded ${transactionId}, outcome ${outcome} (POST /sandbox/transactions/{id}/refund)`);
};

/** A new individual, KYC decided at create by skip-paperwork: a name ending 002 is REJECTED. */
const kyc =
  (fullName: string) =>
  async ({ client }: Sandbox, say: Say) => {
    const { customerId } = await withSkipPaperwork(client, () => newCustomer(client, fullName));
    say(`created ${fullName} (${customerId}) with sandbox skip-paperwork on (PATCH /config)`);
  };

/**
 * An authorization on a new card, then a clearing of `cleared` cents when given (the whole 1,250 settles
 * it, part of it partially settles it, 0 voids it). Descriptors ending 006 and 007 pick the sandbox's
 * exception and decline (conventions §6.5).
 */
const cardPurchase =
  (cleared: number | undefined, descriptor = "BLUE BOTTLE") =>
  async ({ client }: Sandbox, say: Say) => {
    const { cardId } = await cardholderWithCard(client, say);
    const row = await authorize(client, cardId, 1_250, descriptor);
    say(`authorized 1250 cents at ${descriptor} on ${cardId}: ${row}`);
    if (cleared === undefined) return;
    await client.sandbox.simulateCard(cardId, "clearing", { cardTransactionId: row, amount: cleared });
    say(`cleared ${cleared} cents of ${row}`);
  };

type Trigger = { does: string; run: (sandbox: Sandbox, say: Say) => Promise<void> };

const fund: Trigger = {
  does: "a new customer's USD account is funded (sandbox fund)",
  run: async ({ client }, say) => void (await fundedAccount(client, "Trigger Customer", 1_000, say)),
};

/**
 * The sandbox simulation behind each event type `paysvc trigger` produces: the same calls a platform would
 * make, through the API. Each produces its event (and possibly others) on the platform of the API token.
 */
export const TRIGGERS: Readonly<Record<string, Trigger>> = {
  TEST: {
    does: "a TEST event to the webhook endpoint (POST /sandbox/webhooks/test)",
    run: async (sandbox, say) => {
      await sandboxPost(sandbox, "/sandbox/webhooks/test");
      say("sent a TEST event (POST /sandbox/webhooks/test)");
    },
  },
  "INTERNAL_ACCOUNT.BALANCE_UPDATED": fund,
  "INCOMING_PAYMENT.COMPLETED": fund,
  "INCOMING_PAYMENT.FAILED": {
    does: "an ACH deposit to a new customer, then returned (sandbox ach-return)",
    run: async (sandbox, say) => {
      const transactionId = await achDeposit(sandbox, say);
      await sandboxPost(sandbox, `/sandbox/transactions/${encodeURIComponent(transactionId)}/ach-return`);
      say(`returned ${transactionId} (POST /sandbox/transactions/{id}/ach-return)`);
    },
  },
  "INCOMING_PAYMENT.REFUND_PENDING": {
    does: "an ACH deposit to a new customer, then refunded (sandbox refund)",
    run: refund("COMPLETED"),
  },
  "INCOMING_PAYMENT.REFUND_COMPLETED": {
    does: "an ACH deposit to a new customer, then refunded (sandbox refund)",
    run: refund("COMPLETED"),
  },
  "INCOMING_PAYMENT.REFUND_FAILED": {
    does: "an ACH deposit to a new customer, refunded with outcome FAILED",
    run: refund("FAILED"),
  },
  "OUTGOING_PAYMENT.COMPLETED": {
    does: "a same-currency transfer between two new customers, executed at once",
    run: transfer,
  },
  "CUSTOMER.KYC_APPROVED": {
    does: "a new individual, approved at create by sandbox skip-paperwork",
    run: kyc("Trigger Customer"),
  },
  "CUSTOMER.KYC_REJECTED": {
    does: "a new individual whose name ends 002, rejected by sandbox skip-paperwork",
    run: kyc("Trigger Customer 002"),
  },
  "CARD.STATUS_CHANGE": {
    does: "a virtual card issued to a new cardholder, PROCESSING then ACTIVE",
    run: async ({ client }, say) => void (await cardholderWithCard(client, say)),
  },
  "CARD.PIN_STATUS_CHANGE": {
    does: "a new card's PIN is set (NOT_SET to OK)",
    run: async ({ client }, say) => {
      const { cardId } = await cardholderWithCard(client, say);
      await client.cards.setPin(cardId, "4821");
      say(`set the PIN of ${cardId} (POST /cards/{id}/pin)`);
    },
  },
  "CARD_TRANSACTION.AUTHORIZED": {
    does: "an authorization on a new card (sandbox card simulation)",
    run: cardPurchase(undefined),
  },
  "CARD_TRANSACTION.SETTLED": {
    does: "an authorization on a new card, then cleared in full",
    run: cardPurchase(1_250),
  },
  "CARD_TRANSACTION.PARTIALLY_SETTLED": {
    does: "an authorization on a new card, then cleared in part",
    run: cardPurchase(500),
  },
  "CARD_TRANSACTION.VOIDED": {
    does: "an authorization on a new card, then a clearing of 0",
    run: cardPurchase(0),
  },
  "CARD_TRANSACTION.DECLINED": {
    does: "an authorization at a merchant whose descriptor ends 007",
    run: cardPurchase(undefined, "BLOCKED SHOP 007"),
  },
  "CARD_TRANSACTION.EXCEPTION": {
    does: "an authorization at a merchant whose descriptor ends 006, then cleared",
    run: cardPurchase(1_250, "FAILING SHOP 006"),
  },
  "EXTERNAL_ACCOUNT.STATUS_UPDATED": {
    does: "a new US bank account for a new customer, PENDING until validated",
    run: async ({ client }, say) => {
      const { customerId } = await newCustomer(client, "Trigger Beneficiary");
      const account = await client.externalAccounts.create({
        customerId,
        currency: "USD",
        accountInfo: {
          accountType: "USD_ACCOUNT",
          accountNumber: "1234567000",
          routingNumber: "021000021",
          bankAccountType: "CHECKING",
          beneficiary: {
            beneficiaryType: "INDIVIDUAL",
            fullName: "Trigger Beneficiary",
            countryOfResidence: "US",
          },
        },
      });
      say(`created external account ${account.id} (${account.status})`);
      const validated = await waitUntil(
        `${account.id} to be validated`,
        () => client.externalAccounts.get(account.id),
        (a) => a.status !== "PENDING",
      );
      say(`${account.id} is ${validated.status}`);
    },
  },
  "BULK_UPLOAD.COMPLETED": {
    does: "a one-row customer CSV import (POST /customers/bulk/csv)",
    run: async ({ client }, say) => {
      const csv = `customerType,fullName\nINDIVIDUAL,Trigger Import ${Date.now()}\n`;
      const { jobId } = await client.customers.uploadCsv(csv);
      say(`uploaded a one-row CSV: ${jobId}`);
      await waitUntil(
        `${jobId} to finish`,
        () => client.customers.getBulkImportJob(jobId),
        (job) => job.status === "COMPLETED" || job.status === "FAILED",
      );
      say(`${jobId} finished`);
    },
  },
};

/** `paysvc trigger --help`: each event type with the simulation that produces it, then those none does. */
export const triggerHelp = (): string => {
  const others = EVENT_TYPES.filter((type) => !(type in TRIGGERS));
  return `\nEvent types:\n${Object.entries(TRIGGERS)
    .map(([type, { does }]) => `  ${type}\n      ${does}`)
    .join(
      "\n",
    )}\n\nNo sandbox simulation produces these yet (refused):\n${wrap(others.join(", "), 78, "  ")}`;
};

/** `text` broken into lines of at most `width` characters, each after `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join("\n");
}

/** Why `eventType` cannot be triggered: no simulation produces it, or it is no event type at all. */
function refusal(eventType: string): string {
  const known = (EVENT_TYPES as readonly string[]).includes(eventType);
  const why = known ? `no sandbox simulation produces ${eventType} yet` : `${eventType} is not an event type`;
  return `paysvc trigger: ${why}; paysvc trigger --help lists the ones it can produce: ${Object.keys(TRIGGERS).join(", ")}\n`;
}

/**
 * `paysvc trigger EVENT_TYPE`: runs the sandbox simulation that produces that event on the token's
 * platform, saying each step on stderr. Exit 0 done; 1 an event type it cannot produce, or a failed call.
 */
export async function runTriggerCommand(command: TriggerCommand, io: CommandIo): Promise<number> {
  const trigger = TRIGGERS[command.eventType];
  if (!trigger) {
    io.stderr.write(refusal(command.eventType));
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
    const client = new PaysvcClient({ baseUrl: server.url, ...credentials });
    await trigger.run({ client, url: server.url, credentials }, say);
    io.stdout.write(`triggered ${command.eventType}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`paysvc trigger: ${describeApiFailure(error, server)}\n`);
    return 1;
  }
}
