import type { FastifyBaseLogger } from "fastify";
import type { Deps } from "../core/deps.js";

/** One OTP to deliver: by e-mail for EMAIL_OTP, by SMS for SMS_OTP. */
export interface OtpMessage {
  platformId: string;
  accountId: string;
  authMethodId: string;
  channel: "EMAIL" | "SMS";
  /** The credential's nickname: the e-mail address or the E.164 phone number. */
  to: string;
  code: string;
  expiresAt: Date;
}

/**
 * Delivers production OTP codes (sandbox platforms never send: their code is always `000000`). It runs
 * inside the transaction that stored the code, so a sender that talks to a slow provider should queue.
 */
export interface OtpSender {
  send(message: OtpMessage): Promise<void>;
}

/**
 * The default when no sender is configured: a warning that a code was not delivered. The code itself is
 * never written to the log (a log is not a secure channel); sandbox platforms need no sender (`000000`).
 */
export function unconfiguredOtpSender(logger: FastifyBaseLogger): OtpSender {
  return {
    send: async (message) => {
      logger.warn(
        { otpDelivery: { channel: message.channel, authMethodId: message.authMethodId } },
        "OTP code not delivered: no e-mail/SMS sender is configured (Deps.otpSender)",
      );
    },
  };
}

/** The sender of this app (`Deps.otpSender`), or the unconfigured one. */
export function otpSenderFor(deps: Deps): OtpSender {
  return deps.otpSender ?? unconfiguredOtpSender(deps.logger);
}
