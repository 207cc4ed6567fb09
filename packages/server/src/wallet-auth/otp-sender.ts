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
 * The default sender: one log line holding the code, for self-hosted installs without an e-mail or SMS
 * provider. It is only reached for production platforms, so sandbox codes are never logged.
 */
export function consoleOtpSender(logger: FastifyBaseLogger): OtpSender {
  return {
    send: async (message) => {
      logger.info(
        {
          otpDelivery: {
            channel: message.channel,
            to: message.to,
            authMethodId: message.authMethodId,
            code: message.code,
            expiresAt: message.expiresAt.toISOString(),
          },
        },
        "OTP code (console sender: configure an e-mail/SMS sender for real delivery)",
      );
    },
  };
}

/** The sender of this app (`Deps.otpSender`), or the console sender. */
export function otpSenderFor(deps: Deps): OtpSender {
  return deps.otpSender ?? consoleOtpSender(deps.logger);
}
