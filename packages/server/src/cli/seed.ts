import { PaysvcClient as Client, type PaysvcClient } from "@paysvc/sdk";
import { type ApiCredentials, type CommandIo, credentialsFor, describeApiFailure, serverFor } from "./api.js";
import {
  activeCard,
  authorize,
  newCustomer,
  type Sandbox,
  type Say,
  sandboxPost,
  withSkipPaperwork,
} from "./sandbox-fixtures.js";

/** What `paysvc seed` needs: where the server and the API token are, and how to print the ids. */
export interface SeedCommand {
  json: boolean;
  url?: string | undefined;
  dataDir: string;
  credentials?: ApiCredentials | undefined;
}

/** What the seed made, under the names the README's shell variables use. */
export interface Seeded {
  CUSTOMER: string;
  USD: string;
  CARD: string;
  CUSTOMER2: string;
  USD2: string;
  MONTH: string;
  MONTH_CLOSED_AT: string;
}

/** The seed's first customer: a sandbox that has it is seeded already. */
export const SEED_CUSTOMER_ID = "seed-ada";

/** The America/Chicago calendar month (year, 1-based month) of an instant. */
function chicagoMonth(at: Date): { year: number; month: number } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: "America/Chicago",
    year: "numeric",
    month: "numeric",
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part("year"), month: part("month") };
}

const pad = (n: number) => String(n).padStart(2, "0");
const monthAfter = ({ year, month }: { year: number; month: number }) =>
  month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };

/**
 * 18:00 UTC on `day` of the month: noon or 1 pm in Chicago, the same calendar day there whatever the
 * daylight-saving offset, so each step lands on the Chicago day it names.
 */
const dayOf = ({ year, month }: { year: number; month: number }, day: number) =>
  `${year}-${pad(month)}-${pad(day)}T18:00:00Z`;

/** One day of the seeded month: what happens that day, through the API. */
type Step = [day: number, what: string, run: () => Promise<unknown>];

/**
 * `paysvc seed`: the README's sandbox through the API. Customers first (at the platform's time), then the
 * platform's next Chicago month day by day with the sandbox clock: deposits, transfers between the two
 * customers, a card and its purchases. Refuses a platform that has the seed's customer already.
 */
export async function seedSandbox(sandbox: Sandbox, say: Say): Promise<Seeded> {
  const { client } = sandbox;
  const existing = await client.customers.list({ platformCustomerId: SEED_CUSTOMER_ID });
  const found = existing.data[0];
  if (found)
    throw new Error(
      `this sandbox is seeded already (${found.id}, platformCustomerId ${SEED_CUSTOMER_ID}); paysvc sandbox reset empties it`,
    );
  // Cardholders need KYC APPROVED: skip-paperwork approves a new individual at create, and stays on.
  const [ada, grace] = await withSkipPaperwork(
    client,
    async () => [
      await newCustomer(client, "Ada Lovelace", {
        email: "ada@example.com",
        platformCustomerId: SEED_CUSTOMER_ID,
      }),
      await newCustomer(client, "Grace Hopper", {
        email: "grace@example.com",
        platformCustomerId: "seed-grace",
      }),
    ],
    true,
  );
  if (!ada || !grace) throw new Error("the seed's customers were not created");
  say(
    `created Ada Lovelace ${ada.customerId} (USD ${ada.accountId}) and Grace Hopper ${grace.customerId} (USD ${grace.accountId})`,
  );

  const month = monthAfter(chicagoMonth(new Date((await client.sandbox.getClock()).now)));
  let card = "";
  const send = (from: string, to: string, amount: number) =>
    client.quotes.create({
      source: { sourceType: "ACCOUNT", accountId: from },
      destination: { destinationType: "ACCOUNT", accountId: to },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: amount,
      immediatelyExecute: true,
    });
  const purchase = async (amount: number, descriptor: string) => {
    const row = await authorize(client, card, amount, descriptor);
    await client.sandbox.simulateCard(card, "clearing", { cardTransactionId: row, amount });
  };
  const steps: Step[] = [
    [1, "deposit of 2,500.00 to Ada", () => client.sandbox.fund(ada.accountId, 250_000)],
    [1, "deposit of 300.00 to Grace", () => client.sandbox.fund(grace.accountId, 30_000)],
    [
      2,
      "a virtual card for Ada",
      async () => (card = await activeCard(client, ada.customerId, ada.accountId)),
    ],
    [3, "Ada sends 25.00 to Grace", () => send(ada.accountId, grace.accountId, 2_500)],
    [5, "card purchase of 12.50 at BLUE BOTTLE", () => purchase(1_250, "BLUE BOTTLE")],
    [
      8,
      "ACH deposit of 400.00 to Ada",
      () =>
        sandboxPost(sandbox, `/sandbox/internal-accounts/${ada.accountId}/ach-deposit`, { amount: 40_000 }),
    ],
    [12, "card purchase of 45.99 at CORNER GROCER", () => purchase(4_599, "CORNER GROCER")],
    [15, "deposit of 2,500.00 to Ada", () => client.sandbox.fund(ada.accountId, 250_000)],
    [17, "Ada sends 100.00 to Grace", () => send(ada.accountId, grace.accountId, 10_000)],
    [20, "card purchase of 20.00 at CITY PARKING", () => purchase(2_000, "CITY PARKING")],
    [26, "card purchase of 8.99 at BLUE BOTTLE", () => purchase(899, "BLUE BOTTLE")],
    [28, "Grace sends 15.00 to Ada", () => send(grace.accountId, ada.accountId, 1_500)],
  ];
  let today = 0;
  for (const [day, what, run] of steps) {
    if (day !== today) {
      await client.sandbox.advanceClock(dayOf(month, day));
      today = day;
    }
    await run();
    say(`${dayOf(month, day).slice(0, 10)}: ${what}`);
  }
  const next = monthAfter(month);
  return {
    CUSTOMER: ada.customerId,
    USD: ada.accountId,
    CARD: card,
    CUSTOMER2: grace.customerId,
    USD2: grace.accountId,
    MONTH: `${month.year}-${pad(month.month)}`,
    // The month ends at midnight Chicago (06:00 UTC at most); the default settlement lag is 72 h.
    MONTH_CLOSED_AT: `${next.year}-${pad(next.month)}-04T12:00:00Z`,
  };
}

/** `paysvc seed`: exit 0 with the ids on stdout; 1 a seeded sandbox or a failed call (the reason on stderr). */
export async function runSeedCommand(command: SeedCommand, io: CommandIo): Promise<number> {
  const credentials = await credentialsFor(command.dataDir, command.credentials);
  if (typeof credentials === "string") {
    io.stderr.write(`paysvc seed: no API credentials: ${credentials}\n`);
    return 1;
  }
  const server = await serverFor("seed", command.url, command.dataDir, io);
  const say: Say = (line) => io.stderr.write(`paysvc seed: ${line}\n`);
  try {
    const client: PaysvcClient = new Client({ baseUrl: server.url, ...credentials });
    const seeded = await seedSandbox({ client, url: server.url, credentials }, say);
    io.stdout.write(
      command.json
        ? `${JSON.stringify(seeded, null, 2)}\n`
        : Object.entries(seeded)
            .map(([name, value]) => `${name}=${value}\n`)
            .join(""),
    );
    return 0;
  } catch (error) {
    io.stderr.write(`paysvc seed: ${describeApiFailure(error, server)}\n`);
    return 1;
  }
}
