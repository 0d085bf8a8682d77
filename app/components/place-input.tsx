import { useEffect, useRef, useState, type InputHTMLAttributes } from "react";
import { FieldErrors } from "./forms";
import { inputClass } from "./styles";

/**
 * A place typed as text, resolved by the server (exact name, or a "did you mean" message).
 * Its <datalist> holds `options` from the server (the suggestions after a miss, or approved
 * pickup points, so they can be picked without JavaScript) and, with JavaScript, what /places
 * suggests while typing.
 */
export function PlaceInput({
  id,
  name,
  label,
  errors,
  errorId,
  options = [],
  ...rest
}: {
  id: string;
  name: string;
  label: string;
  errors?: string[];
  errorId: string;
  options?: string[];
} & InputHTMLAttributes<HTMLInputElement>) {
  // The server's options (pickup points, "did you mean") stay first, above what /places suggests.
  const [names, setNames] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="text"
        list={`${id}-places`}
        autoComplete="off"
        className={inputClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
        {...rest}
        onChange={(e) => {
          rest.onChange?.(e);
          const q = e.currentTarget.value;
          clearTimeout(timer.current);
          if (q.trim().length < 2) return;
          timer.current = setTimeout(() => {
            fetch(`/places?q=${encodeURIComponent(q)}`)
              .then((r) => (r.ok ? (r.json() as Promise<{ places: { name: string }[] }>) : { places: [] }))
              .then((d) => setNames(d.places.map((p) => p.name)))
              .catch(() => {});
          }, 200);
        }}
      />
      <datalist id={`${id}-places`}>
        {[...new Set([...options, ...names])].map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}
