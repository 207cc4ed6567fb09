import { expect } from "vitest";
import { activeCard, cardPlatform, eventually, fund, newCardholder } from "../cards/helpers.js";
import { authorize } from "../cards/transaction-helpers.js";
import type { Credentials, TestClient, TestServer } from "../harness.js";
import { transfer } from "../quotes/helpers.js";
import { newWalletCustomer, otpLogin } from "../wallet-auth/client.js";
import { type Receiver, startReceiver } from "../webhooks/receiver.js";
import { type AreaIds, areaIds } from "./probe-fixture-areas.js";

// Platform A of the tenancy probe: one of everything the API lets a platform create, made through the
// API (the embedded wallet session through the OTP login of flow 1).

export const pdf = Buffer.from("%PDF-1.7 probe").toString("base64");

export interface TenantA {
  platform: Credentials;
  client: TestClient;
  receiver: Receiver;
  /** Every id A owns, by kind. */
  ids: {
    token: string;
    customer: string;
    walletCustomer: string;
    fiatAccount: string;
    fiatAccount2: string;
    walletAccount: string;
    platformAccount: string;
    bankAccount: string;
    walletExternalAccount: string;
    platformExternalAccount: string;
    card: string;
    cardTransaction: string;
    quote: string;
    transaction: string;
    document: string;
    verification: string;
    beneficialOwner: string;
    delivery: string;
    event: string;
    authMethod: string;
    session: string;
  } & AreaIds;
}

const beneficiary = { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace", countryOfResidence: "US" };
const bank = (accountNumber: string) => ({
  accountType: "USD_ACCOUNT",
  accountNumber,
  routingNumber: "021000021",
  bankAccountType: "CHECKING",
  beneficiary,
});
export const ethAddress = "0x52908400098527886e0f7030069857d2e4169ee7";

function created<T = { id: string }>(res: { status: number; text: string; body: unknown }, status = 201): T {
  expect(res.status, res.text).toBe(status);
  return res.body as T;
}

export async function tenantA(server: TestServer): Promise<TenantA> {
  const { platform, client } = await cardPlatform(server);
  const receiver = await startReceiver();
  expect((await client.patch("/config", { webhookEndpoint: receiver.url })).status).toBe(200);

  const token = created(await client.post("/tokens", { name: "probe", permissions: ["VIEW"] }));

  // Cardholder (KYC-approved), its funded USD account, an ACTIVE card and an authorization on it.
  const holder = await newCardholder(client, "Probe Holder 457");
  await fund(client, holder.accountId, 100_000);
  const card = await activeCard(server, client, holder);
  const cardTransaction = await authorize(client, card.id, 1_000);

  // A second customer with an e-mail: embedded wallet, EMAIL_OTP credential, OTP session.
  const wallet = await newWalletCustomer(client, { fullName: "Wallet Holder 457" });
  const { session } = await otpLogin(client, wallet.emailOtp.id);
  const second = await newCardholder(client, "Second Holder 457");

  // A quote executed at once (a transaction), and one left open.
  const executed = created<{ id: string; transactionId?: string; transaction?: { id: string } }>(
    await client.post(
      "/quotes",
      transfer(holder.accountId, second.accountId, 100, { immediatelyExecute: true }),
    ),
  );
  const quote = created(await client.post("/quotes", transfer(holder.accountId, second.accountId, 100)));
  const transactions = await client.get<{ data: { id: string }[] }>(
    `/transactions?customerId=${holder.customerId}&type=OUTGOING`,
  );
  const transactionId =
    executed.transactionId ??
    executed.transaction?.id ??
    transactions.body.data.find((t) => !t.id.startsWith("Card"))?.id;
  if (!transactionId) throw new Error(`no transaction from quote ${JSON.stringify(executed)}`);

  const bankAccount = created(
    await client.post("/customers/external-accounts", {
      customerId: holder.customerId,
      currency: "USD",
      accountInfo: bank("5555000111"),
    }),
  );
  const walletExternal = created(
    await client.post("/customers/external-accounts", {
      customerId: holder.customerId,
      currency: "USDC",
      ownershipType: "FIRST_PARTY",
      accountInfo: { accountType: "ETHEREUM_WALLET", address: ethAddress },
    }),
  );
  // The ownership challenge on the wallet address.
  const challenge = await client.post(`/customers/external-accounts/${walletExternal.id}/challenge`, {
    method: "WALLET_SIGNATURE",
  });
  expect(challenge.status, challenge.text).toBeLessThan(300);
  const platformExternal = created(
    await client.post("/platform/external-accounts", { currency: "USD", accountInfo: bank("5555000222") }),
  );
  const platformAccounts = await client.get<{ data: { id: string }[] }>("/platform/internal-accounts");
  const platformAccount = platformAccounts.body.data[0]?.id;
  if (!platformAccount) throw new Error("the platform has no internal account");

  const kycCustomer = created(
    await client.post("/customers", { customerType: "INDIVIDUAL", fullName: "Kyc Person 457" }),
  );
  const document = created(
    await client.post("/documents", {
      customerId: kycCustomer.id,
      documentType: "PASSPORT",
      fileName: "p.pdf",
      content: pdf,
    }),
  );
  const verification = created(await client.post("/verifications", { customerId: kycCustomer.id }), 200);
  const kybCustomer = created(await client.post("/customers", { customerType: "BUSINESS" }));
  const beneficialOwner = created(
    await client.post("/beneficial-owners", {
      customerId: kybCustomer.id,
      roles: ["UBO"],
      ownershipPercentage: 100,
      personalInfo: {
        firstName: "Ann",
        lastName: "Owner",
        birthDate: "1980-02-29",
        nationality: "US",
        address: { line1: "1 Main St", city: "Austin", postalCode: "78701", country: "US" },
        idType: "SSN",
        identifier: "123-45-6789",
      },
    }),
  );

  const areas = await areaIds(client, holder);

  let delivery = "";
  let event = "";
  await eventually(async () => {
    const res = await client.get<{ data: { id: string; eventId: string }[] }>("/webhooks/deliveries");
    delivery = res.body.data[0]?.id ?? "";
    event = res.body.data[0]?.eventId ?? "";
    expect(delivery).not.toBe("");
  });

  return {
    platform,
    client,
    receiver,
    ids: {
      token: token.id,
      customer: holder.customerId,
      walletCustomer: wallet.customerId,
      fiatAccount: holder.accountId,
      fiatAccount2: second.accountId,
      walletAccount: wallet.accountId,
      platformAccount,
      bankAccount: bankAccount.id,
      walletExternalAccount: walletExternal.id,
      platformExternalAccount: platformExternal.id,
      card: card.id,
      cardTransaction,
      quote: quote.id,
      transaction: transactionId,
      document: document.id,
      verification: verification.id,
      beneficialOwner: beneficialOwner.id,
      delivery,
      event,
      authMethod: wallet.emailOtp.id,
      session: session.id,
      ...areas,
    },
  };
}
