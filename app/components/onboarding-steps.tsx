import type { FieldMetadata } from "@conform-to/react";
import { FieldErrors, inputClass } from "~/components/forms";
import { HOME_LOCALITY_LABEL } from "~/schemas/onboarding";
import { MOBILE_INPUT_MAX } from "~/schemas/phone";
import { PlaceInput } from "./place-input";

type StepField = FieldMetadata<string, Record<string, string>, string[]>;
type Draft = { phone?: string; hasCar?: string; carType?: string; homeLocality?: string; referralCode?: string };

export function OnboardingSteps({ step, total = 4 }: { step: number; total?: number }) {
  return (
    <div className="mt-4">
      <p className="text-sm font-medium text-slate-700 dark:text-slate-300">{`Step ${step} of ${total}`}</p>
      <div
        className="mt-2 h-2 rounded-full bg-slate-200 dark:bg-slate-800"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={step}
        aria-label="Setup progress"
      >
        <div className="h-2 rounded-full bg-emerald-700" style={{ width: `${(step / total) * 100}%` }} />
      </div>
    </div>
  );
}

// The step bodies of the onboarding wizard (/onboarding): each shows what the draft cookie
// holds unless the last submission returned what was typed.

export function PhoneStep({ field, draft }: { field: StepField; draft: string }) {
  return (
    <div>
      <label htmlFor="phone" className="mb-1 block text-sm font-medium">
        Mobile number
      </label>
      <input
        id="phone"
        name="phone"
        type="tel"
        inputMode="numeric"
        maxLength={MOBILE_INPUT_MAX}
        defaultValue={(field.initialValue as string | undefined) ?? draft}
        placeholder="10-digit mobile number"
        autoComplete="tel-national"
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={field.errors ? field.errorId : undefined}
        className={inputClass}
      />
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function CarStep({ hasCar, carType, draft }: { hasCar: StepField; carType: StepField; draft: Draft }) {
  return (
    <>
      <fieldset aria-describedby={hasCar.errors ? hasCar.errorId : undefined}>
        <legend className="mb-2 text-sm font-medium">Do you have a car?</legend>
        <div className="flex gap-4">
          {(["yes", "no"] as const).map((v) => (
            <label key={v} className="flex items-center gap-2">
              <input
                type="radio"
                name="hasCar"
                value={v}
                defaultChecked={((hasCar.initialValue as string | undefined) ?? draft.hasCar) === v}
                className="h-4 w-4"
              />
              {v === "yes" ? "Yes, I have a car" : "No, I don't"}
            </label>
          ))}
        </div>
        <FieldErrors id={hasCar.errorId} errors={hasCar.errors} />
      </fieldset>
      <div>
        <label htmlFor="carType" className="mb-1 block text-sm font-medium">
          Car type (if you have a car)
        </label>
        <select
          id="carType"
          name="carType"
          defaultValue={(carType.initialValue as string | undefined) ?? draft.carType ?? ""}
          className={inputClass}
          aria-invalid={carType.errors ? true : undefined}
          aria-describedby={carType.errors ? carType.errorId : undefined}
        >
          <option value="">Select car type</option>
          <option value="petrol">Petrol</option>
          <option value="diesel">Diesel</option>
          <option value="hybrid">Hybrid</option>
          <option value="electric">Electric</option>
        </select>
        <FieldErrors id={carType.errorId} errors={carType.errors} />
      </div>
    </>
  );
}

/** Where the member lives: a rider's commute search and the communities near home start here. */
export function HomeStep({ field, draft, options }: { field: StepField; draft?: string; options: string[] }) {
  return (
    <div>
      <PlaceInput
        id="homeLocality"
        name="homeLocality"
        label={HOME_LOCALITY_LABEL}
        placeholder="e.g. Koramangala"
        defaultValue={(field.initialValue as string | undefined) ?? draft ?? ""}
        errors={field.errors}
        errorId={field.errorId}
        options={options}
        maxLength={100}
      />
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Your commute search and the communities near you start from here.
      </p>
    </div>
  );
}

export function ReferralStep({
  field,
  draft,
  redeemed,
}: {
  field: StepField;
  draft: string | undefined;
  redeemed: boolean;
}) {
  return redeemed ? (
    <p className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
      Your referral bonus has already been applied. Nothing to add here.
    </p>
  ) : (
    <div>
      <label htmlFor="referralCode" className="mb-1 block text-sm font-medium">
        Referral code (optional)
      </label>
      <input
        id="referralCode"
        name="referralCode"
        defaultValue={(field.initialValue as string | undefined) ?? draft ?? ""}
        placeholder="LRXXXXXX"
        className={inputClass}
        autoComplete="off"
      />
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Got a code from a friend? You both earn credits.
      </p>
    </div>
  );
}

export function OnboardingReview({ draft }: { draft: Draft }) {
  const rows = [
    ["Mobile", draft.phone || "Not provided"],
    ["Car owner", draft.hasCar === "yes" ? "Yes" : draft.hasCar === "no" ? "No" : "Not answered"],
    [
      "Car type",
      draft.hasCar === "yes"
        ? draft.carType
          ? draft.carType[0].toUpperCase() + draft.carType.slice(1)
          : "Not selected"
        : "None",
    ],
    ["Home locality", draft.homeLocality || "Not given"],
    ["Referral code", draft.referralCode || "None"],
  ];
  return (
    <dl className="divide-y divide-slate-200 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
      {rows.map(([k, v]) => (
        <div key={k} className="flex justify-between px-4 py-2 text-sm">
          <dt className="text-slate-700 dark:text-slate-300">{k}</dt>
          <dd className="font-medium">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
