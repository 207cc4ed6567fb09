import { createHash } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import {
  getPubKeyResponse,
  isLnurlpRequestForUma,
  type LnurlpRequest,
  parseLnurlpRequest,
  signPayload,
  verifyUmaLnurlpQuerySignature,
} from "@uma-sdk/core";
import type { Deps } from "../core/deps.js";
import type { CounterpartyFieldDefinition } from "../platform/currency-configs.js";
import { certificateChain } from "./certificates.js";
import { counterpartyPubKeys, databaseNonceValidator, vaspBaseUrl } from "./counterparty.js";
import { signedLnurlpResponse } from "./lnurlp-response.js";
import { payerDataOptions } from "./payer-data.js";
import { type ProtocolAnswer, protocolError, umaErrorAnswer } from "./receive.js";
import { counterpartyKeyBehaviour, type KeyBehaviour } from "./sandbox-counterparty-domains.js";
import { pubKeysBody } from "./vasp-keys.js";

// The counterparty's keys are public on purpose: it is a test double that anyone may impersonate, and
// every process of every deployment signs with the same keys, so its answers verify anywhere.
const seededKey = (label: string) =>
  new Uint8Array(createHash("sha256").update(`paysvc sandbox counterparty ${label}`).digest());
export const COUNTERPARTY_SIGNING_KEY = seededKey("signing");
const SIGNING_KEY = COUNTERPARTY_SIGNING_KEY;
const ENCRYPTION_KEY = seededKey("encryption");
const IMPOSTOR_KEY = seededKey("impostor");

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const chains = new Map<string, Promise<string>>();

/** A PEM chain for `key`, made once per process and behaviour. */
function chainFor(key: Uint8Array, label: string, behaviour: KeyBehaviour): Promise<string> {
  const id = `${label}/${behaviour}`;
  let chain = chains.get(id);
  if (!chain) {
    const now = Date.now();
    const validity =
      behaviour === "EXPIRED_CERT"
        ? { notBefore: new Date(now - 2 * YEAR_MS), notAfter: new Date(now - YEAR_MS) }
        : { notBefore: new Date(now - YEAR_MS), notAfter: new Date(now + 10 * YEAR_MS) };
    const publicKey = secp256k1.getPublicKey(key, false);
    chain =
      behaviour === "INVALID_CERT"
        ? // The leaf of one chain over the root of another: the root did not sign it.
          Promise.all([
            certificateChain(publicKey, "counterparty", validity),
            certificateChain(publicKey, "counterparty", validity),
          ]).then(([a, b]) => `${leafOf(a)}${rootOf(b)}`)
        : certificateChain(publicKey, "counterparty", validity);
    chains.set(id, chain);
  }
  return chain;
}

const END = "-----END CERTIFICATE-----";
const leafOf = (pem: string) => `${pem.slice(0, pem.indexOf(END) + END.length)}\n`;
const rootOf = (pem: string) => pem.slice(pem.indexOf(END) + END.length).trimStart();

/** `GET /.well-known/lnurlpubkey` of a counterparty domain. */
export async function counterpartyKeysAnswer(domain: string): Promise<ProtocolAnswer> {
  const behaviour = counterpartyKeyBehaviour(domain);
  if (!behaviour || behaviour === "NO_PUBKEY")
    return umaErrorAnswer(404, "NOT_FOUND", "No public keys here.");
  if (behaviour === "BAD_PUBKEY")
    return { status: 200, body: { signingPubKey: "zz", encryptionPubKey: "zz" } };
  const keys = getPubKeyResponse({
    signingCertChainPem: await chainFor(SIGNING_KEY, "signing", behaviour),
    encryptionCertChainPem: await chainFor(ENCRYPTION_KEY, "encryption", behaviour),
  });
  return { status: 200, body: pubKeysBody(keys) };
}

/** The payer data a counterparty receiver asks for: `$travel.rule` requires name, birth date and nationality. */
export function counterpartyPayerFields(user: string): CounterpartyFieldDefinition[] {
  if (user !== "travel.rule") return [{ name: "FULL_NAME", mandatory: false }];
  return [
    { name: "FULL_NAME", mandatory: true },
    { name: "BIRTH_DATE", mandatory: true },
    { name: "NATIONALITY", mandatory: true },
  ];
}

/**
 * Receivers of the counterparty, by the address's user part (docs/guides/uma.md): `success` and
 * `success.<currency>` accept; the others fail the way they are named; any other user does not exist.
 */
const receivers: Readonly<
  Record<
    string,
    | "ACCEPT"
    | "MALFORMED"
    | "NOT_UMA"
    | "BAD_SIGNATURE"
    | "OLD_VERSION"
    | "UNAVAILABLE"
    | "STALE"
    | "REPLAYED"
  >
> = {
  success: "ACCEPT",
  // Looked up like `success`; their pay requests fail as named (sandbox-counterparty-payments.ts).
  "rejects.sender": "ACCEPT",
  "payreq.fails": "ACCEPT",
  "payreq.malformed": "ACCEPT",
  "payreq.unsigned": "ACCEPT",
  duplicate: "ACCEPT",
  "unknown.receiver": "ACCEPT",
  "payee.data.unknown": "ACCEPT",
  "travel.rule": "ACCEPT",
  malformed: "MALFORMED",
  "missing.uma": "NOT_UMA",
  "bad.signature": "BAD_SIGNATURE",
  "old.version": "OLD_VERSION",
  unavailable: "UNAVAILABLE",
  "stale.timestamp": "STALE",
  "replayed.nonce": "REPLAYED",
};

function receiverBehaviour(user: string): { behaviour: string; currency: string } | undefined {
  const match = /^success\.([a-z]{3,4})$/.exec(user);
  if (match) return { behaviour: "ACCEPT", currency: (match[1] as string).toUpperCase() };
  const behaviour = receivers[user];
  return behaviour ? { behaviour, currency: "USD" } : undefined;
}

/** `GET /.well-known/lnurlp/{user}` of a counterparty domain. */
export async function counterpartyLnurlpAnswer(
  deps: Deps,
  origin: string,
  domain: string,
  user: string,
  query: URLSearchParams,
): Promise<ProtocolAnswer> {
  const receiver = receiverBehaviour(user);
  if (!receiver) return umaErrorAnswer(404, "USER_NOT_FOUND", `No receiver $${user}@${domain}.`);
  const { behaviour } = receiver;
  if (behaviour === "UNAVAILABLE") return umaErrorAnswer(503, "INTERNAL_ERROR", "The counterparty is down.");
  if (behaviour === "MALFORMED") return { status: 200, body: "<html>not an LNURLP response</html>" };
  if (behaviour === "OLD_VERSION")
    return umaErrorAnswer(412, "UNSUPPORTED_UMA_VERSION", "Only UMA 99 is spoken here.", {
      supportedMajorVersions: [99],
    });
  let request: LnurlpRequest;
  try {
    request = parseLnurlpRequest(new URL(`https://${domain}/.well-known/lnurlp/$${user}?${query}`));
    if (!isLnurlpRequestForUma(request))
      return umaErrorAnswer(400, "MISSING_REQUIRED_UMA_PARAMETERS", "UMA requests only.");
    const sender = request.vaspDomain as string;
    const keys = await counterpartyPubKeys(deps, "SANDBOX", await vaspBaseUrl(deps, sender, origin), sender);
    if (!(await verifyUmaLnurlpQuerySignature(request, keys, databaseNonceValidator(deps, sender))))
      return umaErrorAnswer(401, "INVALID_SIGNATURE", "The request's signature does not verify.");
  } catch (error) {
    return protocolError(error);
  }
  const offer = {
    receiverAddress: `$${user}@${domain}`,
    currencies: [{ code: receiver.currency, minAmount: 1, maxAmount: Number.MAX_SAFE_INTEGER }],
    payerData: payerDataOptions(counterpartyPayerFields(user)),
    callback: `${await vaspBaseUrl(deps, domain, origin)}/uma/payreq/${user}`,
  };
  const key = behaviour === "BAD_SIGNATURE" ? IMPOSTOR_KEY : SIGNING_KEY;
  const response = await signedLnurlpResponse(request, key, offer, deps.clock.now());
  const body = JSON.parse(response.toJsonString()) as Record<string, unknown> & {
    compliance?: Record<string, unknown>;
  };
  if (behaviour === "NOT_UMA") delete body.compliance;
  if (behaviour === "STALE" && body.compliance)
    body.compliance.signatureTimestamp = Math.floor(Date.now() / 1000) - 3600;
  if (behaviour === "REPLAYED" && body.compliance) {
    // The same nonce for every answer to one sender, signed properly: the first lookup passes, the next
    // ones are replays.
    const nonce = `replayed-${request.vaspDomain}`;
    const { receiverIdentifier, signatureTimestamp } = body.compliance;
    body.compliance.signatureNonce = nonce;
    body.compliance.signature = await signPayload(
      `${receiverIdentifier}|${nonce}|${signatureTimestamp}`,
      SIGNING_KEY,
    );
  }
  return { status: 200, body };
}
