import { data } from "@remix-run/cloudflare";
import { revokeAllAccess } from "~/models/access.server";
import { DELETE_WRONG_PASSWORD, deleteMyAccount, getPasswordHash } from "~/models/own-data.server";
import { deleteAccountSchema } from "~/schemas/own-data";
import { endUserSession } from "~/utils/auth.server";
import { requireSecret } from "~/utils/env.server";
import { verifyPassword } from "~/utils/password.server";
import { runIntent, type Ctx } from "./run.server";

const HIDDEN = ["password"];

/**
 * Delete my account: a password account confirms with its password (a wrong one is the
 * field's error, 400); then everything personal goes, every session ends, home with a toast.
 */
export function handleDeleteAccount(request: Request, context: Ctx, userId: string, formData: FormData) {
  return runIntent(request, context, formData, {
    schema: deleteAccountSchema,
    invalid: (_, __, submission) => data(submission.reply({ hideFields: HIDDEN }), { status: 400 }),
    page: () => ({ kind: "form", reply: (errors, submission) => submission.reply({ ...errors, hideFields: HIDDEN }) }),
    handle: async ({ password }, submission) => {
      const hash = await getPasswordHash(context, userId);
      if (hash && !(await verifyPassword(password ?? "", hash, requireSecret(context.env, "PASSWORD_PEPPER")))) {
        const reply = submission.reply({ fieldErrors: { password: [DELETE_WRONG_PASSWORD] }, hideFields: HIDDEN });
        return { answer: data(reply, { status: 400 }) };
      }
      const done = await deleteMyAccount(context, userId);
      // Every other session's open sockets end now, not at the hubs' next re-check.
      await revokeAllAccess(context, userId);
      if (done.avatarKey) {
        // The photo's bytes go too; a failure leaves an orphan object nobody can reach (its row is gone).
        const key = done.avatarKey;
        context.ctx.waitUntil(context.env.AVATARS.delete(key).catch((e: unknown) => console.error("avatar delete", e)));
      }
      const cookie = await endUserSession(request, context);
      const toast = {
        title: "Your account was deleted",
        description: "Your personal details were erased. Thank you for riding with LoopRide.",
      };
      return { to: "/", toast, headers: { "Set-Cookie": cookie }, audience: done.audience };
    },
  });
}
