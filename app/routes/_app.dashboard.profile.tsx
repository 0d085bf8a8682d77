import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Avatar } from "~/components/avatar";
import { CreditsCard } from "~/components/credits-card";
import { Field, TextareaField, buttonClass } from "~/components/forms";
import { getOwnProfile, updateOwnProfile } from "~/models/profiles.server";
import { ensureReferralCode, getCreditsOverview } from "~/models/referrals.server";
import { profileEditSchema } from "~/schemas/profile";
import { requireUser } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Profile | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const [{ profile }, credits] = await Promise.all([getOwnProfile(context, user.id), getCreditsOverview(context, user.id)]);
  // Every account gets its code at sign-up; an older account without one asks for it with
  // a POST (intent=referral-code): a GET never writes.
  return { profile, credits, origin: new URL(request.url).origin };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const formData = await request.formData();
  if (formData.get("intent") === "referral-code") {
    await ensureReferralCode(context, user.id);
    return redirectWithToast(request, context.env, "/dashboard/profile", { title: "Your referral code is ready." });
  }
  const submission = parseWithZod(formData, { schema: profileEditSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    await updateOwnProfile(context, user.id, submission.value);
  } catch (e) {
    console.error(e);
    return data(submission.reply({ formErrors: ["Failed to save profile. Please try again."] }), { status: 500 });
  }
  return redirectWithToast(request, context.env, "/dashboard/profile", { title: "Profile updated successfully." });
}

export default function ProfilePage() {
  const { profile, credits, origin } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "profile",
    lastResult,
    defaultValue: {
      fullName: profile?.fullName ?? "",
      residentialArea: profile?.residentialArea ?? "",
      workplace: profile?.workplace ?? "",
      bio: profile?.bio ?? "",
      upiId: profile?.upiId ?? "",
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
        <h2 id="personal" className="text-lg font-semibold">Personal Information</h2>
        <div className="mt-4 flex items-center gap-4">
          <Avatar name={profile?.fullName ?? null} url={profile?.avatarUrl} size="lg" />
          <div>
            <p className="font-medium">{profile?.fullName ?? "Unknown User"}</p>
            <p className="text-sm text-slate-700 dark:text-slate-300" role="note">Avatar upload is not supported in this version.</p>
          </div>
        </div>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
          <Field label="Full Name" field={fields.fullName} autoComplete="name" required />
          <Field label="Residential Area" field={fields.residentialArea} placeholder="e.g. HSR Layout" />
          <Field label="Workplace" field={fields.workplace} placeholder="e.g. Manyata Tech Park" />
          <TextareaField label="Bio" field={fields.bio} rows={4} maxLength={500} />
          <Field label="UPI ID (for receiving ride payments)" field={fields.upiId} placeholder="name@okbank" autoComplete="off" />
          <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
            {navigation.state === "submitting" ? "Saving..." : "Save Changes"}
          </button>
        </Form>
      </section>
      <CreditsCard credits={credits} origin={origin} />
      {credits.referralCode ? null : (
        <Form method="post" className="-mt-4">
          <input type="hidden" name="intent" value="referral-code" />
          <button type="submit" className={buttonClass}>Get my referral code</button>
        </Form>
      )}
    </div>
  );
}
