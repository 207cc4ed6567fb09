/** The API version: the final segment of the base address (interface "Versioning" rule 1). */
export const API_VERSION = "2025-10-13";
