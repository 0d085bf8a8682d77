import type { SelectHTMLAttributes } from "react";
import { PLACE_GROUPS } from "~/domain/curated-places";
import { FieldErrors } from "./forms";
import { inputClass } from "./styles";

/** A select of every place, one <optgroup> per place group. */
export function PlaceSelect({
  id,
  name,
  label,
  errors,
  errorId,
  placeholder,
  ...rest
}: {
  id: string;
  name: string;
  label: string;
  errors?: string[];
  errorId: string;
  placeholder: string;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        className={inputClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
        {...rest}
      >
        <option value="">{placeholder}</option>
        {PLACE_GROUPS.map((g) => (
          <optgroup key={g.label} label={g.label}>
            {g.places.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}
