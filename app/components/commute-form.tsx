import { WEEKDAYS, type WeekdayKey } from "~/domain/commutes";
import { FieldErrors } from "./forms";

/** One checkbox per weekday, all named `weekdays` (a plain form post sends the ticked ones). */
export function WeekdayPicker({
  name = "weekdays",
  legend,
  checked,
  errors,
  errorId,
  only,
}: {
  name?: string;
  legend: string;
  checked: readonly string[];
  errors?: string[];
  errorId: string;
  /** Offer only these days (a rider books the days the commute runs). */
  only?: WeekdayKey[];
}) {
  return (
    <fieldset aria-describedby={errors?.length ? errorId : undefined}>
      <legend className="mb-1 block text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {WEEKDAYS.filter((d) => !only || only.includes(d.key)).map((d) => (
          <label
            key={d.key}
            className="flex items-center gap-1 rounded-lg border border-slate-300 px-3 py-2 text-sm dark:border-slate-700"
          >
            <input
              type="checkbox"
              name={name}
              value={d.key}
              defaultChecked={checked.includes(d.key)}
              aria-label={d.name}
            />
            {d.label}
          </label>
        ))}
      </div>
      <FieldErrors id={errorId} errors={errors} />
    </fieldset>
  );
}
