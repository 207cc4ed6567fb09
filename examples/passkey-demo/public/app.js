// The page's flows (interface "Embedded wallet authentication endpoints", flows 1, 3 and 4): an EMAIL_OTP
// sign-in gives the first session key, which signs the passkey registration; the passkey then signs in
// on its own, and the session key paysvc seals to this page is opened here and used to sign out.
import {
  b64url,
  fromB64url,
  fromHex,
  hex,
  hpkeSeal,
  newClientKey,
  newSigningKey,
  openSessionKey,
  signingKeyFromScalar,
  stamp,
} from "./wallet-crypto.js";

const $ = (id) => document.getElementById(id);
const state = { session: undefined, passkeyId: undefined };
$("account").value = new URLSearchParams(location.search).get("accountId") ?? "";

function log(line) {
  $("log").textContent += `${line}\n`;
}

/** A call through the demo backend (which adds the platform's API credentials). */
async function paysvc(method, path, body, headers = {}) {
  const response = await fetch(`/paysvc${path}`, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const value = text ? JSON.parse(text) : null;
  log(`${method} ${path} → ${response.status}`);
  if (response.status >= 400) throw new Error(`${response.status} ${value?.code}: ${value?.reason}`);
  return { status: response.status, body: value };
}

/** The signed retry (conventions §5.3): 202 → stamp payloadToSign with the session key → the identical request. */
async function signed(method, path, body, key) {
  const first = await paysvc(method, path, body);
  if (first.status !== 202) return first;
  return paysvc(method, path, body, {
    "service-wallet-signature": await stamp(first.body.payloadToSign, key),
    "request-id": first.body.requestId,
  });
}

function signedIn(type, session, key) {
  state.session = { id: session.id, key };
  $("status").value = `signed in with ${type}`;
  $("session-id").value = session.id;
  $("session-public-key").value = key.publicKeyHex;
}

async function otpLogin() {
  const accountId = $("account").value;
  const methods = await paysvc("GET", `/auth/credentials?accountId=${encodeURIComponent(accountId)}`);
  const otp = methods.body.data.find((m) => m.type === "EMAIL_OTP");
  const challenge = await paysvc("POST", `/auth/credentials/${otp.id}/challenge`);
  const bundle = JSON.parse(challenge.body.otpEncryptionTargetBundle);
  const target = JSON.parse(new TextDecoder().decode(fromHex(bundle.data))).targetPublic;
  const tek = await newSigningKey();
  const plaintext = new TextEncoder().encode(
    JSON.stringify({ otp_code: $("otp").value, public_key: tek.publicKeyHex }),
  );
  const { enc, ciphertext } = await hpkeSeal(fromHex(target), plaintext);
  const body = {
    type: "EMAIL_OTP",
    encryptedOtpBundle: JSON.stringify({ encappedPublic: hex(enc), ciphertext: hex(ciphertext) }),
  };
  const session = await signed("POST", `/auth/credentials/${otp.id}/verify`, body, tek);
  signedIn("EMAIL_OTP", session.body, tek);
}

async function registerPasskey() {
  const options = await (await fetch("/api/registration-options", { method: "POST" })).json();
  const credential = await navigator.credentials.create({
    publicKey: {
      challenge: fromB64url(options.challenge),
      rp: options.rp,
      user: { ...options.user, id: fromB64url(options.user.id) },
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      attestation: "none",
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    },
  });
  const body = {
    type: "PASSKEY",
    accountId: $("account").value,
    nickname: $("nickname").value,
    challenge: options.challenge,
    attestation: {
      credentialId: b64url(credential.rawId),
      clientDataJson: b64url(credential.response.clientDataJSON),
      attestationObject: b64url(credential.response.attestationObject),
      transports: credential.response.getTransports(),
    },
  };
  const created = await signed("POST", "/auth/credentials", body, state.session.key);
  state.passkeyId = created.body.id;
  $("status").value = `passkey registered: ${created.body.credentialId}`;
}

async function passkeyLogin() {
  const clientKey = await newClientKey();
  const challenge = await paysvc("POST", `/auth/credentials/${state.passkeyId}/challenge`, {
    clientPublicKey: clientKey.publicKeyHex,
  });
  // The challenge is a hex string; WebAuthn signs its UTF-8 bytes (conventions §5.6).
  const assertion = await navigator.credentials.get({
    publicKey: {
      challenge: new TextEncoder().encode(challenge.body.challenge),
      rpId: location.hostname,
      allowCredentials: [{ type: "public-key", id: fromB64url(challenge.body.credentialId) }],
      userVerification: "preferred",
    },
  });
  const response = assertion.response;
  const session = await paysvc(
    "POST",
    `/auth/credentials/${state.passkeyId}/verify`,
    {
      type: "PASSKEY",
      assertion: {
        credentialId: b64url(assertion.rawId),
        clientDataJson: b64url(response.clientDataJSON),
        authenticatorData: b64url(response.authenticatorData),
        signature: b64url(response.signature),
        ...(response.userHandle ? { userHandle: b64url(response.userHandle) } : {}),
      },
    },
    { "request-id": challenge.body.requestId },
  );
  const scalar = await openSessionKey(session.body.encryptedSessionSigningKey, clientKey);
  signedIn("PASSKEY", session.body, await signingKeyFromScalar(scalar));
}

async function signOut() {
  await signed("DELETE", `/auth/sessions/${state.session.id}`, undefined, state.session.key);
  state.session = undefined;
  $("status").value = "signed out";
}

for (const [id, action] of [
  ["otp-login", otpLogin],
  ["register", registerPasskey],
  ["passkey-login", passkeyLogin],
  ["sign-out", signOut],
]) {
  $(id).addEventListener("click", () =>
    action().catch((error) => {
      $("status").value = `failed: ${error.message}`;
      log(String(error.stack ?? error));
    }),
  );
}
