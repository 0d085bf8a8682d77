import { getFormProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useFetcher, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import {
  Field,
  FieldErrors,
  FormErrors,
  TextareaField,
  buttonClass,
  inputClass,
  secondaryButtonClass,
} from "~/components/forms";
import { PlaceInput } from "~/components/place-input";
import { RouteVias } from "~/components/route-vias";
import { BackLink, cardClass } from "~/components/ride-form-ui";
import { formatRupees } from "~/domain/money";
import { type CarType, MAX_SEATS, NOTES_MAX } from "~/domain/ride-limits";
import { suggestTripCost } from "~/domain/trip-cost";
import { createRideSchema } from "~/schemas/rides";

// One piece, not several: the page sits near its initial-JS budget, and each component
// boundary costs bytes, so the form stays whole here and the route only composes it.

/** What the action answers a suggestion with (as the form's reply, or a fetcher's data). */
type SuggestAnswer =
  | {
      placeOptions?: Record<string, string[]>;
      suggestion?: ReturnType<typeof suggestTripCost>;
      initialValue?: Record<string, unknown>;
    }
  | undefined;

type Props = {
  carType: CarType;
  communities: { id: string; name: string; womenOnly?: boolean | null; pickupPoints?: string[] | null }[];
  today: string;
  isWoman: boolean;
  /** The curated places (tech parks, hubs): the browser suggests a cost between them itself. */
  curated: { name: string; lat: number; lng: number }[];
  lastResult: SubmissionResult<string[]> | undefined;
  /** Where Cancel leads without JavaScript: the same-site page the visitor came from. */
  back: string;
};

/** The create-ride form: places, time, seats, the fair-cost suggestion, sharing and notes. */
export function CreateRideForm({ carType, communities, today, isWoman, curated, lastResult, back }: Props) {
  const [shared, setShared] = useState("");
  const lookup = useMemo(() => {
    const byName = new Map(curated.map((p) => [p.name, p]));
    return (name: string) => byName.get(name);
  }, [curated]);
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "create-ride",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createRideSchema() }),
  });
  const [from, setFrom] = useState(String(fields.fromLocation.initialValue ?? ""));
  const [to, setTo] = useState(String(fields.toLocation.initialValue ?? ""));
  // With JavaScript, a suggestion for a place the browser does not know is asked for on the
  // side (a fetcher posting the two places), not by submitting the form: a submit runs the
  // form's validation, which stopped it with "Please enter the trip cost" (the field it was to
  // fill) or, let through, marked every empty field as wrong.
  const suggestFetcher = useFetcher<SuggestAnswer & SubmissionResult<string[]>>();
  const extra = lastResult as SuggestAnswer;
  const fetched = suggestFetcher.data as SuggestAnswer;
  // The browser knows the curated places; for a locality the server's suggestion is shown
  // while the places are still the ones it was made for.
  const answer = fetched ?? extra;
  const serverSuggestion =
    answer?.initialValue?.fromLocation === from && answer?.initialValue?.toLocation === to ? answer?.suggestion : null;
  const suggestion = suggestTripCost(from, to, carType, lookup) ?? serverSuggestion ?? null;
  useEffect(() => {
    // An answer for places since changed (typed over while it was on its way) fills nothing.
    if (fetched?.suggestion && fetched.initialValue?.fromLocation === from && fetched.initialValue?.toLocation === to) {
      form.update({ name: fields.tripCost.name, value: String(fetched.suggestion.paise / 100) });
    }
    // Once per answer, not on every render.
  }, [fetched]);
  const busy = navigation.state === "submitting";
  // Approved pickup points, the chosen community's first (issue 16).
  const sharedWith = shared || String(fields.communityId.initialValue ?? "");
  const pickups = [
    ...new Set(
      [...communities.filter((c) => c.id === sharedWith), ...communities].flatMap((c) => c.pickupPoints ?? []),
    ),
  ];
  return (
    <Form method="post" {...getFormProps(form)} className={`${cardClass} space-y-5`}>
      {/* Enter in any field creates the ride (the first submit button is the default). */}
      <button type="submit" name="intent" value="create" className="sr-only" tabIndex={-1} aria-hidden="true">
        Create Ride
      </button>
      <FormErrors errors={form.errors} />
      {pickups.length ? (
        <p className="text-sm" data-testid="pickup-points">
          Approved pickup points:{" "}
          {communities
            .filter((c) => c.pickupPoints?.length)
            .map((c) => `${c.name}: ${c.pickupPoints!.join(", ")}`)
            .join("; ")}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <PlaceInput
          key={fields.fromLocation.key}
          id={fields.fromLocation.id}
          name={fields.fromLocation.name}
          defaultValue={String(fields.fromLocation.initialValue ?? "")}
          label="Pickup location"
          placeholder="e.g. HSR Layout"
          errors={fields.fromLocation.errors}
          errorId={fields.fromLocation.errorId}
          options={[...new Set([...pickups, ...(extra?.placeOptions?.fromLocation ?? [])])]}
          onChange={(e) => setFrom(e.currentTarget.value)}
        />
        <PlaceInput
          key={fields.toLocation.key}
          id={fields.toLocation.id}
          name={fields.toLocation.name}
          defaultValue={String(fields.toLocation.initialValue ?? "")}
          label="Drop location"
          placeholder="e.g. Manyata Tech Park"
          errors={fields.toLocation.errors}
          errorId={fields.toLocation.errorId}
          options={extra?.placeOptions?.toLocation}
          onChange={(e) => setTo(e.currentTarget.value)}
        />
      </div>
      <RouteVias fields={[fields.via1, fields.via2, fields.via3]} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Date" type="date" field={fields.date} min={today} />
        <Field label="Time" type="time" field={fields.time} />
        <div>
          <label htmlFor={fields.seats.id} className="mb-1 block text-sm font-medium">
            Available seats
          </label>
          <select {...getSelectProps(fields.seats)} key={fields.seats.key} className={inputClass}>
            <option value="">Select seats</option>
            {Array.from({ length: MAX_SEATS }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <FieldErrors id={fields.seats.errorId} errors={fields.seats.errors} />
        </div>
      </div>
      <section
        aria-labelledby="suggested-cost"
        className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 dark:border-emerald-800 dark:bg-emerald-950"
      >
        <h2 id="suggested-cost" className="font-semibold text-emerald-950 dark:text-emerald-50">
          Suggested fair cost
        </h2>
        {suggestion ? (
          <>
            <p className="mt-1 text-2xl font-bold text-emerald-900 dark:text-emerald-100" data-testid="suggested-cost">
              {formatRupees(suggestion.paise, { decimals: 0 })}
            </p>
            <p className="mt-1 text-sm text-slate-800 dark:text-slate-200" data-testid="suggestion-explanation">
              {suggestion.explanation}
            </p>
          </>
        ) : (
          <p className="mt-1 text-sm text-slate-800 dark:text-slate-200">
            Choose pickup and drop to see a fair trip cost for your car.
          </p>
        )}
        <button
          type="submit"
          name="intent"
          value="suggest"
          formNoValidate
          disabled={suggestFetcher.state !== "idle"}
          className={`${secondaryButtonClass} mt-3`}
          onClick={(e) => {
            // Without JavaScript the button posts the form and the page comes back with the
            // suggestion filled in; with it, the browser suggests, or asks the server aside.
            e.preventDefault();
            const known = suggestTripCost(from, to, carType, lookup);
            if (known) form.update({ name: fields.tripCost.name, value: String(known.paise / 100) });
            else suggestFetcher.submit({ intent: "suggest", fromLocation: from, toLocation: to }, { method: "post" });
          }}
        >
          Suggest cost
        </button>
      </section>
      <Field
        label="Trip cost (₹, the whole trip)"
        field={fields.tripCost}
        inputMode="decimal"
        placeholder="e.g. 250"
        hint="What the whole trip costs you; each seat pays its share."
      />
      <TextareaField
        label="Notes (optional)"
        field={fields.notes}
        rows={3}
        maxLength={NOTES_MAX}
        placeholder="Pickup point, luggage, AC, music..."
      />
      <div>
        <label htmlFor={fields.communityId.id} className="mb-1 block text-sm font-medium">
          Share with a community (optional)
        </label>
        <select
          {...getSelectProps(fields.communityId)}
          key={fields.communityId.key}
          className={inputClass}
          onChange={(e) => setShared(e.currentTarget.value)}
        >
          <option value="">Everyone (no community)</option>
          {communities.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
              {c.womenOnly ? " (women-only rides)" : ""}
            </option>
          ))}
        </select>
        <FieldErrors id={fields.communityId.errorId} errors={fields.communityId.errors} />
      </div>
      {isWoman ? (
        <div>
          <label className="flex items-center gap-2 text-sm font-medium">
            <input
              type="checkbox"
              name={fields.womenOnly.name}
              defaultChecked={fields.womenOnly.initialValue === "on"}
              className="h-4 w-4 accent-emerald-700"
            />
            Women only (only women can book seats)
          </label>
          <FieldErrors id={fields.womenOnly.errorId} errors={fields.womenOnly.errors} />
        </div>
      ) : null}
      <div className="flex justify-end gap-3">
        <BackLink href={back} className={secondaryButtonClass}>
          Cancel
        </BackLink>
        <button type="submit" name="intent" value="create" className={buttonClass} disabled={busy}>
          {busy ? "Creating..." : "Create Ride"}
        </button>
      </div>
    </Form>
  );
}
