// The passkey demo: an integrator backend and a page that signs in with an e-mail code, registers a
// passkey and signs in with it, against a sandbox paysvc.
//
//   PAYSVC_URL=http://127.0.0.1:8080/2025-10-13 PAYSVC_CLIENT_ID=… PAYSVC_CLIENT_SECRET=… \
//     npx tsx examples/passkey-demo/server.ts
import { startPasskeyDemo } from "./demo-server.js";

const demo = await startPasskeyDemo({
  paysvcBaseUrl: process.env.PAYSVC_URL ?? "http://127.0.0.1:8080/2025-10-13",
  clientId: process.env.PAYSVC_CLIENT_ID ?? "",
  clientSecret: process.env.PAYSVC_CLIENT_SECRET ?? "",
  port: Number(process.env.PORT ?? 4100),
});
console.log(`passkey demo on ${demo.url}/?accountId=<an EMBEDDED_WALLET account id>`);
