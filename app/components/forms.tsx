import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useEffect, useRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import { inputClass } from "./styles";

// The style helpers moved to ./styles; re-exported so existing imports keep working.
export { buttonClass, inputClass, secondaryButtonClass } from "./styles";

export function FieldErrors({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <div id={id} className="mt-1 text-sm text-red-700 dark:text-red-400" role="alert">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

type FieldProps = {
  label: ReactNode;
  field: FieldMetadata<string | number | undefined | null>;
  type?: "text" | "email" | "password" | "tel" | "number" | "date" | "time" | "search" | "url";
  hint?: ReactNode;
  required?: boolean;
  /** Empties the input whenever this value changes (a password after a failed attempt). */
  clearOn?: unknown;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type">;

/** The asterisk after a required field's label (hidden from screen readers, which hear the label). */
const RequiredMark = () => (
  <span aria-hidden="true" className="text-red-700">
    {" "}
    *
  </span>
);

/** A labelled input with its conform wiring and error messages. */
export function Field({ label, field, type = "text", hint, required, className, clearOn, ...rest }: FieldProps) {
  const props = getInputProps(field, { type, ariaAttributes: true });
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (clearOn !== undefined && ref.current) ref.current.value = "";
  }, [clearOn]);
  return (
    <div className={className}>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
        {label}
        {required ? <RequiredMark /> : null}
      </label>
      <input {...props} key={props.key} ref={ref} {...rest} className={inputClass} />
      {hint ? <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">{hint}</p> : null}
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function TextareaField({
  label,
  field,
  required,
  ...rest
}: { label: ReactNode; field: FieldMetadata<string | undefined | null>; required?: boolean } & Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  "required"
>) {
  return (
    <div>
      <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
        {label}
        {required ? <RequiredMark /> : null}
      </label>
      <textarea
        id={field.id}
        name={field.name}
        defaultValue={field.initialValue ?? ""}
        aria-invalid={field.errors ? true : undefined}
        aria-describedby={field.errors ? field.errorId : undefined}
        className={inputClass}
        {...rest}
      />
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function FormErrors({ errors }: { errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}
