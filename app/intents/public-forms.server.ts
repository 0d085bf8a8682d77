import { requestPasswordReset } from "~/models/password-resets.server";
import { subscribeToNewsletter } from "~/models/newsletter.server";
import { forgotPasswordSchema, RESET_SENT } from "~/schemas/account-recovery";
import { newsletterSchema } from "~/schemas/newsletter";
import { kickOutbox } from "~/models/outbox/deliver.server";
import { runIntent, type Ctx } from "./run.server";

// The public forms a visitor posts (after guardPublicForm). A bot (the honeypot) gets the
// same answer as a person and changes nothing.

/** The home page's newsletter sign-up. */
export function handleNewsletter(request: Request, context: Ctx, formData: FormData, isBot: boolean) {
  return runIntent(request, context, formData, {
    schema: newsletterSchema,
    invalid: "reply",
    page: () => ({ kind: "form" }),
    handle: async ({ email }) => {
      if (!isBot) await subscribeToNewsletter(context, email);
      const description = "We'll keep you posted on LoopRide news for Bengaluru commuters.";
      return { to: "/#newsletter", toast: { title: "Thanks for subscribing!", description } };
    },
  });
}

/** Forgot password: the one answer whether or not an account uses the address. */
export function handleForgotPassword(request: Request, context: Ctx, formData: FormData, isBot: boolean) {
  return runIntent(request, context, formData, {
    schema: forgotPasswordSchema,
    invalid: "reply",
    page: () => ({ kind: "form" }),
    handle: async ({ email }) => {
      if (!isBot && (await requestPasswordReset(context, email))) kickOutbox(context);
      return { to: "/login", toast: { ...RESET_SENT, type: "success" as const } };
    },
  });
}
