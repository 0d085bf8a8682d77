import type { FieldMetadata } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field } from "./forms";
import { buttonClass, inputClass } from "./styles";

// Issue 37: the car riders see on the day of a ride, and the private gender that women-only
// rides read, both editable at any time (the profile page; the gender in Settings too).

const GENDERS: [string, string][] = [
  ["unsaid", "Prefer not to say"],
  ["female", "Woman"],
  ["male", "Man"],
  ["other", "Another gender"],
];

export const GENDER_LABEL = "Your gender (private: never shown; lets women book and offer women-only rides)";

/** The profile form's defaults for the car and the gender. */
type Car = { make?: string; model?: string; color?: string; license_plate?: string };

export function carAndGenderDefaults(profile: { vehicleInfo: Car | null; gender: string | null } | null) {
  const v = profile?.vehicleInfo ?? {};
  return {
    make: v.make ?? "",
    model: v.model ?? "",
    color: v.color ?? "",
    licensePlate: v.license_plate ?? "",
    gender: profile?.gender ?? "unsaid",
  };
}

export function GenderSelect({ value, id = "gender" }: { value: string | null | undefined; id?: string }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {GENDER_LABEL}
      </label>
      <select id={id} name="gender" defaultValue={value ?? "unsaid"} className={inputClass}>
        {GENDERS.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </div>
  );
}

type Str = FieldMetadata<string | undefined | null>;

/** The car's fields inside the profile form (conform's fields for their errors). */
export function CarFields({ fields }: { fields: { make: Str; model: Str; color: Str; licensePlate: Str } }) {
  return (
    <fieldset className="space-y-4">
      <legend className="font-semibold">Your car</legend>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        If you drive: your accepted riders see the model, colour and registration number on the day of the ride.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Make" field={fields.make} placeholder="e.g. Maruti Suzuki" />
        <Field label="Model" field={fields.model} placeholder="e.g. Swift" />
        <Field label="Colour" field={fields.color} placeholder="e.g. White" />
        <Field
          label="Registration number"
          field={fields.licensePlate}
          placeholder="KA 01 AB 1234"
          autoCapitalize="characters"
        />
      </div>
    </fieldset>
  );
}

/** Settings' own "Your gender" form: a plain POST, saved with a toast. */
export function GenderSetting({ gender }: { gender: string | null }) {
  return (
    <section aria-labelledby="gender-heading" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <h2 id="gender-heading" className="text-lg font-semibold">
        Women-only rides
      </h2>
      <Form method="post" className="mt-2 space-y-3">
        <input type="hidden" name="intent" value="gender" />
        <GenderSelect value={gender} id="settings-gender" />
        <button type="submit" className={buttonClass}>
          Save gender
        </button>
      </Form>
    </section>
  );
}
