import { data } from "@remix-run/cloudflare";
import { z } from "zod";
import { revokeAllAccess } from "~/models/access.server";
import { setOwnSetting } from "~/models/settings.server";
import { updateOwnProfile } from "~/models/profiles.server";
import { genderSchema, settingToggleSchema } from "~/schemas/profile";
import { endUserSession } from "~/utils/auth.server";
import { runIntent, type Ctx } from "./run.server";

const FAILED = "Failed to update setting. Please try again.";
const signOutEverywhere = z.discriminatedUnion("intent", [z.object({ intent: z.literal("sign-out-everywhere") })]);

/**
 * The settings page's posts: a toggle (its fetcher shows one message for every failure and
 * reverts the switch), or signing out everywhere.
 */
export function handleSettingsPost(request: Request, context: Ctx, userId: string, formData: FormData) {
  // Any other field named intent is not this page's: the toggle schema ignores it.
  if (formData.get("intent") === "sign-out-everywhere") {
    return runIntent(request, context, formData, {
      schema: signOutEverywhere,
      invalid: "unknown",
      page: () => ({ kind: "page" }),
      handle: async () => {
        await revokeAllAccess(context, userId);
        // This session's row went with the others; the cookie goes too.
        const cookie = await endUserSession(request, context);
        const toast = {
          title: "Signed out everywhere",
          description:
            "Every device was signed out; your calendar feed and push notifications were turned off. Sign in again to continue.",
        };
        return { to: "/login", toast, headers: { "Set-Cookie": cookie } };
      },
    });
  }
  if (formData.get("intent") === "gender") {
    return runIntent(request, context, formData, {
      schema: genderSchema,
      invalid: () => ({ to: "/dashboard/settings", toast: { title: "Please choose one of the options" } }),
      page: () => ({ kind: "toast", to: "/dashboard/settings", title: "Nothing changed" }),
      handle: async ({ gender }) => {
        await updateOwnProfile(context, userId, { gender: gender ?? null });
        return { to: "/dashboard/settings", toast: { title: "Settings saved" } };
      },
    });
  }
  const failed = () => ({ ok: false as const, error: FAILED });
  return runIntent(request, context, formData, {
    schema: settingToggleSchema,
    invalid: () => data(failed(), { status: 400 }),
    page: () => ({ kind: "form", reply: failed, unexpected: FAILED }),
    handle: async ({ setting, value }) => {
      await setOwnSetting(context, userId, setting, value === "on");
      return { to: "/dashboard/settings", toast: { title: "Settings saved" } };
    },
  });
}
