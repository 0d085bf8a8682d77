import type { FieldMetadata } from "@conform-to/react";
import { PlaceInput } from "./place-input";

type ViaField = FieldMetadata<string | null | undefined>;

/**
 * Up to three optional places the route passes (issue 36): riders near them, or near the line
 * between them, find the ride. Empty fields are no via.
 */
export function RouteVias({ fields }: { fields: [ViaField, ViaField, ViaField] }) {
  return (
    <fieldset className="grid gap-4 sm:grid-cols-3">
      <legend className="mb-1 text-sm font-medium">Via (optional, in order): places you pass on the way</legend>
      {fields.map((f, i) => (
        <PlaceInput
          key={f.key}
          id={f.id}
          name={f.name}
          defaultValue={String(f.initialValue ?? "")}
          label={`Via ${i + 1}`}
          placeholder={i === 0 ? "e.g. Marathahalli" : undefined}
          errors={f.errors}
          errorId={f.errorId}
        />
      ))}
    </fieldset>
  );
}
