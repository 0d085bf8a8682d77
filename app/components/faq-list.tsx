import type { ReactNode } from "react";

export type Faq = { question: string; answer: ReactNode };

/**
 * Questions as <details>/<summary>, so they open and close without JavaScript and
 * every answer is in the server-rendered HTML.
 */
export function FaqList({ items }: { items: Faq[] }) {
  return (
    <div className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-950">
      {items.map((faq) => (
        <details key={faq.question} className="group px-5 py-4">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-slate-900 dark:text-slate-100 [&::-webkit-details-marker]:hidden">
            {faq.question}
            <span
              aria-hidden="true"
              className="shrink-0 text-emerald-700 transition-transform group-open:rotate-45 dark:text-emerald-400"
            >
              +
            </span>
          </summary>
          <div className="mt-3 space-y-2 text-slate-700 dark:text-slate-300">{faq.answer}</div>
        </details>
      ))}
    </div>
  );
}
