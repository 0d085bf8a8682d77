import { data } from "@remix-run/cloudflare";
import { removeProfilePhoto, setProfilePhoto } from "~/models/photos.server";
import { resendVerification } from "~/models/password-resets.server";
import { updateOwnProfile } from "~/models/profiles.server";
import { ensureReferralCode } from "~/models/referrals.server";
import { profileEditSchema, profileIntentSchema } from "~/schemas/profile";
import type { FormErrors } from "~/utils/errors.server";
import { kickOutbox } from "~/models/outbox/deliver.server";
import { MAX_PHOTO_BYTES, PHOTO_MESSAGES, PhotoError, photoVersion, processPhoto } from "~/utils/photo.server";
import { runIntent, type Ctx } from "./run.server";

const HERE = "/dashboard/profile";

/** The photo form's answer: one line under the picker (its status says why). */
export const photoRefused = (message: string, status = 400) => data({ photoError: message }, { status });

/**
 * The profile page's posts: the profile form itself (no intent; its errors on the form) or
 * one of the page's buttons (any other intent is a 400).
 */
export function handleProfilePost(request: Request, context: Ctx, userId: string, formData: FormData) {
  if (!formData.has("intent")) {
    return runIntent(request, context, formData, {
      schema: profileEditSchema,
      invalid: "reply",
      page: () => ({ kind: "form", unexpected: "Failed to save profile. Please try again." }),
      handle: async ({ make, model, color, licensePlate, ...rest }) => {
        const vehicle = { make: make ?? undefined, model: model ?? undefined, color: color ?? undefined };
        await updateOwnProfile(context, userId, {
          ...rest,
          vehicle: { ...vehicle, license_plate: licensePlate ?? undefined },
        });
        return { to: HERE, toast: { title: "Profile updated successfully." } };
      },
    });
  }
  return runIntent(request, context, formData, {
    schema: profileIntentSchema,
    invalid: "unknown",
    page: (input) =>
      input.intent === "upload-photo"
        ? {
            kind: "form",
            reply: (errors: FormErrors) => ({ photoError: errors.formErrors?.[0] ?? "" }),
            unexpected: "Failed to save the photo. Please try again.",
          }
        : { kind: "toast", to: backFrom(input), title: "No confirmation link sent" },
    handle: async (input) => {
      switch (input.intent) {
        case "upload-photo":
          return uploadPhoto(context, userId, formData);
        case "remove-photo": {
          const { removed } = await removeProfilePhoto(context, userId);
          return { to: HERE, toast: { title: removed ? "Profile photo removed." : "You have no profile photo." } };
        }
        case "resend-verification":
          await resendVerification(context, userId);
          kickOutbox(context);
          return {
            to: backFrom(input),
            toast: { title: "Confirmation link sent", description: "Please check your e-mail." },
          };
        case "referral-code":
          await ensureReferralCode(context, userId);
          return { to: HERE, toast: { title: "Your referral code is ready." } };
      }
    },
  });
}

/** The banner's page sends its visitor back there; the profile's own button stays here. */
const backFrom = (input: { intent: string; back?: string }) => input.back ?? HERE;

async function uploadPhoto(context: Ctx, userId: string, formData: FormData) {
  const file = formData.get("photo");
  if (!(file instanceof File) || file.size === 0) return { answer: photoRefused(PHOTO_MESSAGES.missing) };
  if (file.size > MAX_PHOTO_BYTES) return { answer: photoRefused(PHOTO_MESSAGES.tooBig, 413) };
  const jpeg = await processPhoto(new Uint8Array(await file.arrayBuffer())).catch((e: unknown) => e);
  // A picture the decoder refuses is the visitor's to fix, not a model error.
  if (jpeg instanceof PhotoError) return { answer: photoRefused(jpeg.message, jpeg.kind === "too-big" ? 413 : 400) };
  if (!(jpeg instanceof Uint8Array)) {
    console.error(jpeg);
    return { answer: photoRefused("The photo could not be processed. Please try another photo.", 500) };
  }
  await setProfilePhoto(
    context,
    userId,
    jpeg as Uint8Array<ArrayBuffer>,
    await photoVersion(jpeg as Uint8Array<ArrayBuffer>),
  );
  return { to: HERE, toast: { title: "Profile photo updated." } };
}
