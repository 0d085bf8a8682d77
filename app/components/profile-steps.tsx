import type { FieldMetadata } from "@conform-to/react";
import { Field, FieldErrors, TextareaField, inputClass } from "~/components/forms";
import { STATUS_LABEL } from "~/domain/profile-score";
import { MOBILE_INPUT_MAX } from "~/schemas/phone";

// The pieces of the profile-completion wizard (/profile-completion): its progress header and
// the body of each of its four steps.

type Fields = Record<string, FieldMetadata<string, Record<string, string>, string[]>>;
type Progress = { status: string; score: number; hints: string[] };

/** The status badge, the score bar and what is still missing. */
export function ProfileProgress({ progress }: { progress: Progress }) {
  const badgeTone =
    progress.status === "complete" ? "bg-emerald-700" : progress.status === "basic" ? "bg-amber-700" : "bg-slate-600";
  return (
    <>
      <div className="flex items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Complete your profile</h1>
        <span
          data-testid="profile-status"
          className={`rounded-full px-3 py-1 text-sm font-semibold text-white ${badgeTone}`}
        >
          {STATUS_LABEL[progress.status] ?? "Incomplete"}
        </span>
      </div>
      <div className="mt-4">
        <p className="text-sm font-medium">Profile {progress.score}% complete</p>
        <div
          className="mt-1 h-2 rounded-full bg-slate-200 dark:bg-slate-800"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress.score}
          aria-label="Profile completion"
        >
          <div className="h-2 rounded-full bg-emerald-700" style={{ width: `${progress.score}%` }} />
        </div>
        {progress.hints.length ? (
          <ul className="mt-2 list-inside list-disc text-sm text-slate-700 dark:text-slate-300">
            {progress.hints.map((h) => (
              <li key={h}>{h}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </>
  );
}

export function BasicInfoStep({ fields }: { fields: Fields }) {
  return (
    <>
      <Field label="Full name" field={fields.fullName} required autoComplete="name" />
      <Field label="Residential area" field={fields.residentialArea} required placeholder="e.g. HSR Layout" />
      <Field label="Workplace" field={fields.workplace} required placeholder="e.g. RMZ Ecospace" />
      <TextareaField label="Bio" field={fields.bio} rows={4} maxLength={500} />
    </>
  );
}

export function ContactStep({ fields }: { fields: Fields }) {
  return (
    <>
      <Field
        label="Phone number"
        field={fields.phoneNumber}
        type="tel"
        required
        maxLength={MOBILE_INPUT_MAX}
        autoComplete="tel-national"
      />
      <Field label="Emergency contact" field={fields.emergencyContact} required placeholder="Name and phone number" />
    </>
  );
}

export function VehicleStep({ fields }: { fields: Fields }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Make" field={fields.make} placeholder="e.g. Maruti Suzuki" />
        <Field label="Model" field={fields.model} placeholder="e.g. Swift" />
        <Field label="Year" field={fields.year} inputMode="numeric" maxLength={4} />
        <Field label="Colour" field={fields.color} />
        <Field label="Licence plate" field={fields.licensePlate} placeholder="KA 01 AB 1234" />
        <Field label="Insurance information" field={fields.insuranceInfo} />
      </div>
    </div>
  );
}

type Prefs = {
  smokingAllowed: boolean;
  petsAllowed: boolean;
  musicPreference: string;
  conversationPreference: string;
  maxDetourMinutes: number;
  genderPreference: string;
  gender?: string | null;
} | null;

export function Preferences({ profile, errors, errorId }: { profile: Prefs; errors?: string[]; errorId: string }) {
  const select = (name: string, label: string, value: string, options: [string, string][]) => (
    <div>
      <label htmlFor={name} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select id={name} name={name} defaultValue={value} className={inputClass}>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <div className="space-y-4">
      <label className="flex items-center gap-2">
        <input type="checkbox" name="smokingAllowed" defaultChecked={profile?.smokingAllowed} className="h-4 w-4" />{" "}
        Smoking allowed
      </label>
      <label className="flex items-center gap-2">
        <input type="checkbox" name="petsAllowed" defaultChecked={profile?.petsAllowed} className="h-4 w-4" /> Pets
        allowed
      </label>
      {select("musicPreference", "Music", profile?.musicPreference ?? "moderate", [
        ["quiet", "Quiet"],
        ["low", "Low"],
        ["moderate", "Moderate"],
        ["high", "High"],
      ])}
      {select("conversationPreference", "Conversation", profile?.conversationPreference ?? "casual", [
        ["quiet", "Quiet"],
        ["casual", "Casual"],
        ["talkative", "Talkative"],
      ])}
      <div>
        <label htmlFor="maxDetourMinutes" className="mb-1 block text-sm font-medium">
          Maximum detour (minutes)
        </label>
        <input
          id="maxDetourMinutes"
          name="maxDetourMinutes"
          type="number"
          min={0}
          max={60}
          defaultValue={profile?.maxDetourMinutes ?? 15}
          className={inputClass}
          aria-invalid={errors ? true : undefined}
          aria-describedby={errors ? errorId : undefined}
        />
        <FieldErrors id={errorId} errors={errors} />
      </div>
      {select("genderPreference", "Co-passenger gender preference", profile?.genderPreference ?? "any", [
        ["any", "Any"],
        ["female", "Female only"],
        ["male", "Male only"],
      ])}
      {select(
        "gender",
        "Your gender (private: never shown; lets women book and offer women-only rides)",
        profile?.gender ?? "unsaid",
        [
          ["unsaid", "Prefer not to say"],
          ["female", "Woman"],
          ["male", "Man"],
          ["other", "Another gender"],
        ],
      )}
    </div>
  );
}
