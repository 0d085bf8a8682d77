import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, useFetcher, type FormProps } from "@remix-run/react";
import { useEffect, useRef, type ComponentType, type RefAttributes } from "react";
import { Field, FieldErrors, FormErrors, TextareaField, buttonClass, inputClass, secondaryButtonClass } from "./forms";
import { COMMUNITY_TYPE_OPTIONS, createCommunitySchema } from "~/schemas/communities";

export const CREATE_COMMUNITY_ACTION = "/communities/new";

function CommunityFields({
  lastResult,
  FormComponent,
  submitting,
  id,
  onCancel,
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  FormComponent: ComponentType<FormProps & RefAttributes<HTMLFormElement>>;
  submitting: boolean;
  id: string;
  onCancel?: () => void;
}) {
  const [form, fields] = useForm({
    id,
    lastResult,
    defaultValue: { type: "residential" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createCommunitySchema }),
  });
  // A refused duplicate name carries the page of the community that has it (issue 38).
  const link = (lastResult as { link?: unknown } | null | undefined)?.link;
  const existing = typeof link === "string" && link.startsWith("/communities/") ? link : null;
  return (
    <FormComponent method="post" action={CREATE_COMMUNITY_ACTION} {...getFormProps(form)} className="space-y-4">
      <FormErrors errors={form.errors} />
      <Field
        label="Community Name"
        field={fields.name}
        required
        maxLength={80}
        placeholder="e.g. HSR Layout Sector 2 Residents"
      />
      {existing && fields.name.errors?.length ? (
        <p className="-mt-2 text-sm">
          <a href={existing} className="font-medium text-emerald-800 underline dark:text-emerald-300">
            Open the existing community
          </a>
        </p>
      ) : null}
      <div>
        <label htmlFor={fields.type.id} className="mb-1 block text-sm font-medium">
          Community Type
        </label>
        <select {...getSelectProps(fields.type)} key={fields.type.key} className={inputClass}>
          {COMMUNITY_TYPE_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <FieldErrors id={fields.type.errorId} errors={fields.type.errors} />
      </div>
      <Field
        label="Location"
        field={fields.location}
        required
        maxLength={120}
        placeholder="e.g. HSR Layout, Bengaluru"
      />
      <TextareaField
        label="Description"
        field={fields.description}
        required
        rows={4}
        maxLength={1000}
        placeholder="Who is this community for?"
      />
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={buttonClass} disabled={submitting}>
          {submitting ? "Creating..." : "Create Community"}
        </button>
        {onCancel ? (
          <button type="button" className={secondaryButtonClass} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </FormComponent>
  );
}

/** The create form as a page section (/communities/new, works without JavaScript). */
export function CommunityFormPage({
  lastResult,
  submitting,
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  submitting: boolean;
}) {
  return <CommunityFields id="create-community" lastResult={lastResult} FormComponent={Form} submitting={submitting} />;
}

/**
 * "Create Community": a link to /communities/new that, once JavaScript runs, opens the same
 * form in a modal <dialog> and submits it with a fetcher (a success redirect navigates).
 */
export function CreateCommunityDialog({ signedIn }: { signedIn: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<SubmissionResult<string[]>>();
  const hydrated = useRef(false);
  useEffect(() => {
    hydrated.current = true;
  }, []);
  return (
    <>
      <a
        href={CREATE_COMMUNITY_ACTION}
        className={buttonClass}
        onClick={(e) => {
          if (!signedIn || !hydrated.current || !ref.current?.showModal) return;
          e.preventDefault();
          ref.current.showModal();
        }}
      >
        Create Community
      </a>
      {signedIn ? (
        <dialog
          ref={ref}
          aria-labelledby="create-community-title"
          className="m-auto w-full max-w-lg rounded-xl border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/60 dark:border-slate-800 dark:bg-slate-950 dark:text-slate-100"
        >
          <h2 id="create-community-title" className="mb-4 text-xl font-bold">
            Create Community
          </h2>
          <CommunityFields
            id="create-community-dialog"
            lastResult={fetcher.data}
            FormComponent={fetcher.Form}
            submitting={fetcher.state !== "idle"}
            onCancel={() => ref.current?.close()}
          />
        </dialog>
      ) : null}
    </>
  );
}
