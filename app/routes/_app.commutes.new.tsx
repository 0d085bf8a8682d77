import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { handleCreateCommute } from "~/intents/commute-publish.server";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { WeekdayPicker } from "~/components/commute-form";
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
import { MAX_SEATS, NOTES_MAX } from "~/domain/rides";
import { istDate } from "~/domain/time";
import { getCreateRideContext } from "~/models/ride-publishing.server";
import type { CreateCommuteInput } from "~/schemas/commutes";
import { requireUser } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Publish a Commute | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const { communities, isWoman } = await getCreateRideContext(context, user.id);
  return { communities, isWoman, today: istDate() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleCreateCommute(request, context, user.id, await request.formData());
}

export default function NewCommute() {
  const { communities, isWoman, today } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const placeOptions = (lastResult as { placeOptions?: Record<string, string[]> } | undefined)?.placeOptions;
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<CreateCommuteInput>({
    id: "create-commute",
    lastResult,
    // Validated by the server only (the same zod schema; its messages come back in place,
    // with or without JS): zod on the client would put this page over the 130 KB initial-JS
    // budget (130.5 KB measured), see docs/decisions/0017-recurring-commutes.md.
  });
  const initialDays = fields.weekdays.initialValue;
  const checked = Array.isArray(initialDays) ? initialDays.map(String) : initialDays ? [String(initialDays)] : [];
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div className="flex items-center gap-3">
        <BackLink href="/dashboard/rides">Back</BackLink>
        <h1 className="text-2xl font-bold">Publish a Commute</h1>
      </div>
      <p className="text-sm text-slate-800 dark:text-slate-200">
        The same trip every week: riders can book one day or every day. Rides are created for the next 14 days and
        topped up daily.
      </p>
      <Form method="post" {...getFormProps(form)} className={`${cardClass} space-y-5`}>
        <FormErrors errors={form.errors} />
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
            options={placeOptions?.fromLocation}
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
            options={placeOptions?.toLocation}
          />
        </div>
        <RouteVias fields={[fields.via1, fields.via2, fields.via3]} />
        <WeekdayPicker
          legend="Weekdays"
          checked={checked}
          errors={fields.weekdays.errors}
          errorId={fields.weekdays.errorId}
          key={fields.weekdays.key}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Departure time" type="time" field={fields.time} />
          {/* ADR 0048: the trip back, from the drop to the pickup on the same days. */}
          <Field
            label="Return time (optional)"
            type="time"
            field={fields.returnTime}
            hint="Also publishes the trip back, drop to pickup, on the same days."
          />
          <Field label="Start date" type="date" field={fields.startDate} min={today} />
          <Field label="End date (optional)" type="date" field={fields.endDate} min={today} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
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
          <Field label="Trip cost (₹, each trip)" field={fields.tripCost} inputMode="decimal" placeholder="e.g. 250" />
        </div>
        <TextareaField label="Notes (optional)" field={fields.notes} rows={2} maxLength={NOTES_MAX} />
        <div>
          <label htmlFor={fields.communityId.id} className="mb-1 block text-sm font-medium">
            Share with a community (optional)
          </label>
          <select {...getSelectProps(fields.communityId)} key={fields.communityId.key} className={inputClass}>
            <option value="">Everyone (no community)</option>
            {communities.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
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
              Women only (only women can book seats, every day)
            </label>
            <FieldErrors id={fields.womenOnly.errorId} errors={fields.womenOnly.errors} />
          </div>
        ) : null}
        <div className="flex justify-end gap-3">
          <BackLink href="/dashboard/rides" className={secondaryButtonClass}>
            Cancel
          </BackLink>
          <button type="submit" className={buttonClass} disabled={busy}>
            {busy ? "Publishing..." : "Publish Commute"}
          </button>
        </div>
      </Form>
    </div>
  );
}
