import multipart from "@fastify/multipart";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyRequest } from "fastify";
import type { Deps } from "../../core/deps.js";
import { ApiError, type FieldError, invalidField, invalidInput } from "../../core/errors/api-error.js";
import { sha256Hex } from "../../core/hash.js";
import { errorResponses } from "../../core/http/schemas.js";
import { MAX_FILE_BYTES } from "./csv.js";
import { getImport, startImport } from "./imports.js";
import { BulkCustomerImportJob, BulkCustomerImportJobAccepted, BulkJobParams } from "./schemas.js";

const uploads = new WeakMap<FastifyRequest, Buffer>();

/** A multipart parsing failure as a catalogue error (the plugin's own errors answer outside the contract). */
function multipartError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  switch ((error as { code?: string }).code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return invalidField("file", `is larger than ${MAX_FILE_BYTES / (1024 * 1024)} MiB`);
    case "FST_FILES_LIMIT":
      return invalidField("file", "must be sent once: send one file per upload");
    case "FST_FIELDS_LIMIT":
    case "FST_PARTS_LIMIT":
      return invalidField("body", "has too many parts; send only the file part");
    default:
      return new ApiError("INVALID_REQUEST_FORMAT", {
        reason: "The multipart/form-data body could not be read.",
      });
  }
}

/**
 * Reads the `file` part (a file part, or a text field holding the CSV) into memory, within the size limit.
 * The request body becomes `{file: {sha256, size}}`, so an Idempotency-Key replay compares the file's content.
 */
async function readUpload(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) {
    throw new ApiError("INVALID_REQUEST_FORMAT", {
      reason: "The request body must be multipart/form-data with a `file` part holding the CSV.",
    });
  }
  const files: Buffer[] = [];
  const unknown: FieldError[] = [];
  try {
    for await (const part of request.parts({
      limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 10, parts: 11 },
    })) {
      if (part.fieldname !== "file")
        unknown.push({ field: part.fieldname, message: "is not a recognized field" });
      const content =
        part.type === "file" ? await part.toBuffer() : Buffer.from(String(part.value ?? ""), "utf8");
      if (part.fieldname === "file") files.push(content);
    }
  } catch (error) {
    throw multipartError(error);
  }
  const [file] = files;
  if (!file) unknown.unshift({ field: "file", message: "is required" });
  else if (files.length > 1)
    unknown.unshift({ field: "file", message: "must be sent once: send one file per upload" });
  if (unknown.length > 0 || !file) throw invalidInput(unknown);
  uploads.set(request, file);
  request.body = { file: { sha256: sha256Hex(file), size: file.length } };
}

/** `/customers/bulk/*` (issue 21): CSV import of customers, in the hosted API's paths and shapes. */
export const bulkCustomerRoutes: FastifyPluginAsyncTypebox<{ deps: Deps }> = async (app, { deps }) => {
  const tags = ["Customers"];
  // Only this plugin's routes take multipart bodies; the parser reads nothing until readUpload asks.
  await app.register(multipart, { limits: { fileSize: MAX_FILE_BYTES } });

  app.post(
    "/customers/bulk/csv",
    {
      schema: {
        tags,
        consumes: ["multipart/form-data"],
        description:
          "Imports customers from a CSV file sent as the multipart/form-data part `file` (at most 10 MiB and " +
          "10,000 rows). The header names `POST /customers` fields (`address.line1`, `agreementConsents[0].type`; " +
          "`currencies` takes a comma-separated list); each row is validated and created like `POST /customers`. " +
          "Answers `202` with the job to poll at `GET /customers/bulk/jobs/{jobId}`.",
        response: { 202: BulkCustomerImportJobAccepted, ...errorResponses },
      },
      preValidation: readUpload,
    },
    async (request, reply) => {
      const file = uploads.get(request) ?? Buffer.alloc(0);
      return reply.code(202).send(await startImport(deps, request.caller, file));
    },
  );

  app.get(
    "/customers/bulk/jobs/:jobId",
    { schema: { tags, params: BulkJobParams, response: { 200: BulkCustomerImportJob, ...errorResponses } } },
    async (request) => getImport(deps, request.caller, request.params.jobId),
  );
};
