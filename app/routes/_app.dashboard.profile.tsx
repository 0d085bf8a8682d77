import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState, type ChangeEvent } from "react";
import { Avatar } from "~/components/avatar";
import { CarFields, carAndGenderDefaults, GenderSelect } from "~/components/car-and-gender";
import { handleProfilePost, photoRefused } from "~/intents/profile.server";
import { CreditsCard } from "~/components/credits-card";
import { EmailStatus } from "~/components/email-status";
import { ReliabilityRecord } from "~/components/reliability";
import { reliabilityFrom, reliabilityQueries } from "~/models/reliability.server";
import { Field, TextareaField, buttonClass } from "~/components/forms";
import { ownProfileFrom, ownProfileQuery } from "~/models/profiles.server";
import { getCreditsOverview } from "~/models/referrals.server";
import { profileEditSchema } from "~/schemas/profile";
import { requireUser } from "~/utils/auth.server";
import { declaredLength, MAX_FORM_BYTES } from "~/utils/form-body.server";
import { PHOTO_MESSAGES } from "~/utils/photo.server";

export const meta: MetaFunction = () => [{ title: "Profile | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  // One batch: the profile and the reliability record ride with the credits' reads.
  const { also, ...credits } = await getCreditsOverview(context, user.id, [
    ownProfileQuery(context.db, user.id),
    ...reliabilityQueries(context.db, user.id),
  ]);
  const { profile } = ownProfileFrom(also[0]);
  const reliability = reliabilityFrom(also.slice(1));
  // The session's user row already says whether the address is confirmed (no extra read).
  const emailStatus = { email: user.email, verified: user.emailVerified };
  // Every account gets its code at sign-up; an older account without one asks for it with
  // a POST (intent=referral-code): a GET never writes.
  return {
    profile,
    hasPhoto: Boolean(profile?.avatarKey),
    credits,
    emailStatus,
    reliability,
    origin: new URL(request.url).origin,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  // An oversized upload is refused by its declared length, before its body is read
  // (server.ts lets bodies this large through to this page only).
  const length = declaredLength(request);
  if (length !== null && length > MAX_FORM_BYTES) return photoRefused(PHOTO_MESSAGES.tooBig, 413);
  return handleProfilePost(request, context, user.id, await request.formData());
}

/** A local preview of the chosen photo (a data: URL: the page's CSP allows no blob: images). */
function showPreview(e: ChangeEvent<HTMLInputElement>, set: (url: string | null) => void) {
  const file = e.currentTarget.files?.[0];
  if (!file || !/^image\/(jpeg|png|webp)$/.test(file.type)) return set(null);
  const reader = new FileReader();
  reader.onload = () => set(typeof reader.result === "string" ? reader.result : null);
  reader.readAsDataURL(file);
}

export default function ProfilePage() {
  const { profile, hasPhoto, credits, emailStatus, reliability, origin } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const photoError = actionData && "photoError" in actionData ? actionData.photoError : null;
  const lastResult = actionData && !("photoError" in actionData) ? actionData : null;
  const navigation = useNavigation();
  const [preview, setPreview] = useState<string | null>(null);
  const [form, fields] = useForm({
    id: "profile",
    lastResult,
    defaultValue: {
      fullName: profile?.fullName ?? "",
      residentialArea: profile?.residentialArea ?? "",
      workplace: profile?.workplace ?? "",
      bio: profile?.bio ?? "",
      upiId: profile?.upiId ?? "",
      emergencyContactEmail: profile?.emergencyContactEmail ?? "",
      ...carAndGenderDefaults(profile),
    },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileEditSchema }),
  });
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Profile</h1>
        <p className="text-slate-700 dark:text-slate-300">Manage your profile information</p>
      </div>
      <section aria-labelledby="personal" className="rounded-xl border border-slate-200 p-6 dark:border-slate-800">
        <h2 id="personal" className="text-lg font-semibold">
          Personal Information
        </h2>
        <div className="mt-4 flex flex-wrap items-start gap-4">
          <Avatar name={profile?.fullName ?? null} url={preview ?? profile?.avatarUrl} size="lg" />
          <div className="min-w-0 flex-1 space-y-2">
            <p className="font-medium">{profile?.fullName ?? "Unknown User"}</p>
            <EmailStatus email={emailStatus.email} verified={emailStatus.verified} />
            {/* A plain multipart form: works without JavaScript; with it, a preview. */}
            <Form method="post" encType="multipart/form-data" className="space-y-2">
              <input type="hidden" name="intent" value="upload-photo" />
              <label htmlFor="photo" className="block text-sm font-medium">
                Change Avatar
              </label>
              <input
                id="photo"
                name="photo"
                type="file"
                accept="image/jpeg,image/png,image/webp"
                required
                aria-describedby={photoError ? "photo-help photo-error" : "photo-help"}
                aria-invalid={photoError ? true : undefined}
                onChange={(e) => showPreview(e, setPreview)}
                className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-emerald-100 file:px-3 file:py-2 file:font-medium file:text-emerald-900"
              />
              <p id="photo-help" className="text-sm text-slate-700 dark:text-slate-300">
                JPEG, PNG or WebP, at most 5 MB. It is cropped to a square, and location and camera details are removed.
                Only people who share a community or a ride with you see it.
              </p>
              {photoError ? (
                <p id="photo-error" role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
                  {photoError}
                </p>
              ) : null}
              <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
                Upload photo
              </button>
            </Form>
            {hasPhoto ? (
              <Form method="post">
                <input type="hidden" name="intent" value="remove-photo" />
                <button type="submit" className="text-sm font-medium text-red-700 underline dark:text-red-400">
                  Remove photo
                </button>
              </Form>
            ) : null}
          </div>
        </div>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <Field label="Full Name" field={fields.fullName} autoComplete="name" required />
          <Field label="Residential Area" field={fields.residentialArea} placeholder="e.g. HSR Layout" />
          <Field label="Workplace" field={fields.workplace} placeholder="e.g. Manyata Tech Park" />
          <TextareaField label="Bio" field={fields.bio} rows={4} maxLength={500} />
          <Field
            label="UPI ID (for receiving ride payments)"
            field={fields.upiId}
            placeholder="name@okbank"
            autoComplete="off"
          />
          <Field
            label="Emergency contact's e-mail (for Alert my emergency contact)"
            field={fields.emergencyContactEmail}
            type="email"
            placeholder="name@example.com"
            autoComplete="off"
          />
          <CarFields fields={fields} />
          <GenderSelect value={profile?.gender} />
          <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
            {navigation.state === "submitting" ? "Saving..." : "Save Changes"}
          </button>
        </Form>
      </section>
      <CreditsCard credits={credits} origin={origin} />
      <ReliabilityRecord record={reliability} title="Your reliability record" />
      {credits.referralCode ? null : (
        <Form method="post" className="-mt-4">
          <input type="hidden" name="intent" value="referral-code" />
          <button type="submit" className={buttonClass}>
            Get my referral code
          </button>
        </Form>
      )}
    </div>
  );
}
