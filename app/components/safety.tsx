import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { FieldErrors, FormErrors, TextareaField } from "./forms";
import { buttonClass, cardClass, dangerButtonClass, inputClass, smallButtonClass } from "./styles";
import { REPORT_DETAILS_MAX, REPORT_REASONS, reportSchema } from "~/schemas/safety";

type Person = { id: string; fullName: string | null; blockedByMe: boolean; reportedByMe: boolean };

/** The report form and the block / unblock button for one person. */
export function PersonSafety({
  person,
  from,
  lastResult,
}: {
  person: Person;
  from: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const [form, fields] = useForm({
    id: "report",
    lastResult,
    defaultValue: { context: from },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: reportSchema }),
  });
  const name = person.fullName ?? "this person";
  return (
    <div className="space-y-6">
      <section className={cardClass} aria-labelledby="report-heading">
        <h2 id="report-heading" className="text-lg font-semibold">
          Report {name}
        </h2>
        {person.reportedByMe ? (
          <p className="mt-2 text-slate-700 dark:text-slate-300">You have reported this person.</p>
        ) : (
          <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4">
            <input type="hidden" name="intent" value="report" />
            <input type="hidden" name="context" value={from} />
            <FormErrors errors={form.errors} />
            <div>
              <label htmlFor={fields.reason.id} className="mb-1 block text-sm font-medium">
                Reason
              </label>
              <select {...getSelectProps(fields.reason)} key={fields.reason.key} className={inputClass}>
                <option value="">Choose a reason</option>
                {REPORT_REASONS.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
              </select>
              <FieldErrors id={fields.reason.errorId} errors={fields.reason.errors} />
            </div>
            <TextareaField
              label="What happened (optional)"
              field={fields.details}
              rows={3}
              maxLength={REPORT_DETAILS_MAX}
            />
            <p className="text-sm text-slate-700 dark:text-slate-300">
              Your report goes to the admins of the communities you both belong to. If you share none, or it is about
              harassment, threats or unsafe driving, LoopRide's operators read it. {name} is not told who reported them.
            </p>
            <button type="submit" className={buttonClass}>
              Send report
            </button>
          </Form>
        )}
      </section>
      <section className={cardClass} aria-labelledby="block-heading">
        <h2 id="block-heading" className="text-lg font-semibold">
          {person.blockedByMe ? `You blocked ${name}` : `Block ${name}`}
        </h2>
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          {person.blockedByMe
            ? "Neither of you sees the other's rides, requests or messages. You can unblock them here or in Settings."
            : "Neither of you will see the other's rides, and neither can request a seat from or message the other. Pending requests between you are withdrawn. They are not told."}
        </p>
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value={person.blockedByMe ? "unblock" : "block"} />
          <button type="submit" className={person.blockedByMe ? smallButtonClass : dangerButtonClass}>
            {person.blockedByMe ? "Unblock" : "Block"}
          </button>
        </Form>
      </section>
    </div>
  );
}
