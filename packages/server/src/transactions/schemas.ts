import { Type } from "typebox";
import { CardTransaction } from "../cards/schemas.js";
import { Transaction } from "../payments/schemas.js";

/** A row of `GET /transactions`: a payment transaction or a card transaction, discriminated by `type`. */
export const AnyTransaction = Type.Union([Transaction, CardTransaction]);
