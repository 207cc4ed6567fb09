import { type Static, type TObject, Type } from "typebox";

/** Every error response: `{code, reason, details?}` (interface "Error body"). */
export const ErrorBody = Type.Object(
  {
    code: Type.String(),
    reason: Type.String(),
    details: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);

export const Currency = Type.Object({
  code: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  decimals: Type.Integer(),
});

export const CurrencyAmount = Type.Object({ amount: Type.Integer(), currency: Currency });

export const DateTime = (options: { description?: string } = {}) =>
  Type.String({ format: "date-time", ...options });

/** A string enum that validates as `enum` (reported in FieldError.constraint.enum). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
) {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

/** Error responses documented on every route. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  500: ErrorBody,
  // Any route, while the service drains for shutdown (core/http/shutdown.ts).
  503: ErrorBody,
};

/**
 * A union told apart by one property (`oneOf` + `discriminator`), so Ajv reports only the errors of the
 * branch the property names, and an unknown value as an error on that property.
 */
export function DiscriminatedUnion<const T extends TObject[]>(propertyName: string, variants: [...T]) {
  return Type.Unsafe<Static<T[number]>>({
    type: "object",
    required: [propertyName],
    discriminator: { propertyName },
    oneOf: variants,
  });
}
