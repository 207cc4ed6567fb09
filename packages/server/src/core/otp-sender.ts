import type { FastifyBaseLogger } from "fastify";

// OTP delivery: an outside service (e-mail and SMS providers) as an interface, with the default used when none is
// configured; Deps carries it (core/deps.ts), so it lives in core like the other Deps types.

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
export function otpSenderFor(deps: {
  otpSender?: OtpSender | undefined;
  logger: FastifyBaseLogger;
}): OtpSender {
  return deps.otpSender ?? unconfiguredOtpSender(deps.logger);
}
