// A webhook receiver a platform can copy: verifies X-Service-Signature against the platform's own JWKS
// (fetched with its credentials once, refetched on an unknown kid), then applies the spec's consumer rules.
//
//   PAYSVC_URL=http://127.0.0.1:8080/2025-10-13 PAYSVC_CLIENT_ID=… PAYSVC_CLIENT_SECRET=… \
//     npx tsx examples/webhook-receiver/server.ts
import { createServer } from "node:http";
import {
  MemoryConsumerStore,
  PaysvcClient,
  WebhookConsumer,
  WebhookVerificationError,
} from "@paysvc/sdk/node";

const paysvc = new PaysvcClient({
  baseUrl: process.env.PAYSVC_URL ?? "http://127.0.0.1:8080/2025-10-13",
  clientId: process.env.PAYSVC_CLIENT_ID ?? "",
  clientSecret: process.env.PAYSVC_CLIENT_SECRET ?? "",
});

// Replace MemoryConsumerStore with one backed by your database: processed event ids, cards and card
// transactions must survive a restart, or duplicates after a restart are applied again.
const store = new MemoryConsumerStore();
const consumer = new WebhookConsumer(store, async (event) => {
  console.log(`event ${event.type} ${event.id}`);
});

const server = createServer((req, res) => {
  if (req.method !== "POST") return void res.writeHead(405).end();
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", async () => {
    try {
      // Verify the raw bytes as received; never a re-serialized object.
      const event = await paysvc.webhooks.verify(Buffer.concat(chunks), req.headers);
      const result = await consumer.consume(event);
      res.writeHead(result.status).end(result.duplicate ? "duplicate" : "ok");
    } catch (error) {
      if (error instanceof WebhookVerificationError) return void res.writeHead(400).end(error.reason);
      console.error(error);
      res.writeHead(500).end(); // the service retries
    }
  });
});

const port = Number(process.env.PORT ?? 4000);
server.listen(port, "127.0.0.1", () => console.log(`webhook receiver on http://127.0.0.1:${port}/`));
