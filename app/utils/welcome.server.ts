import type { AppLoadContext } from "@remix-run/cloudflare";
import { NEW_USER_BONUS } from "../domain/referral";
import { ensureReferralCode, redeemReferralCode } from "../models/referrals.server";
import type { Toast } from "./toast.server";

/**
 * What every new account goes through once signed up (password or Google): the
 * remembered referral code is applied and the user's own code is created. Returns the
 * toast to greet them with. A failure to create the code is only logged.
 */
export async function welcomeNewUser(
  context: Pick<AppLoadContext, "db">,
  userId: string,
  referralCode: string | null | undefined,
): Promise<Toast> {
  let toast: Toast = { title: "Welcome to LoopRide!", description: "Let's finish setting up your profile." };
  if (referralCode) {
    const result = await redeemReferralCode(context, userId, referralCode);
    toast = result.ok
      ? {
          title: "Welcome bonus applied!",
          description: `You've received ${NEW_USER_BONUS} credits for using a referral code.`,
        }
      : {
          title: "Welcome to LoopRide!",
          description: "That referral code could not be applied. You can enter another one during setup.",
        };
  }
  try {
    await ensureReferralCode(context, userId);
  } catch (e) {
    console.error("referral code generation failed", e);
  }
  return toast;
}
