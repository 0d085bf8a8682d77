import type { ReactNode } from "react";

export const POLICY_LAST_UPDATED = "January 2024";

/** The heading band shared by the information pages (How It Works, Pricing, Support, ...). */
export function PageHeader({ title, eyebrow, children }: { title: string; eyebrow?: string; children?: ReactNode }) {
  return (
    <section className="bg-gradient-to-b from-emerald-50 to-white dark:from-emerald-950 dark:to-slate-950">
      <div className="mx-auto max-w-4xl px-4 py-14 text-center">
        {eyebrow ? <p className="font-semibold text-emerald-800 dark:text-emerald-300">{eyebrow}</p> : null}
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight md:text-5xl">{title}</h1>
        {children ? (
          <div className="mx-auto mt-4 max-w-2xl text-lg text-slate-700 dark:text-slate-300">{children}</div>
        ) : null}
      </div>
    </section>
  );
}

const proseClass =
  "mt-4 space-y-3 text-slate-700 dark:text-slate-300 [&_a]:font-medium [&_a]:text-emerald-800 [&_a]:underline dark:[&_a]:text-emerald-300 [&_li]:pl-1 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6 [&_strong]:text-slate-900 dark:[&_strong]:text-slate-100 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6";

/** A long-form text page: a heading, an optional "Last updated" line, an introduction and sections. */
export function LegalPage({
  title,
  lastUpdated,
  intro,
  children,
}: {
  title: string;
  lastUpdated?: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <header className="border-b border-slate-200 pb-6 dark:border-slate-800">
        <h1 className="text-4xl font-extrabold tracking-tight">{title}</h1>
        {lastUpdated ? (
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{`Last updated: ${lastUpdated}`}</p>
        ) : null}
        {intro ? <div className={proseClass}>{intro}</div> : null}
      </header>
      <div className="divide-y divide-slate-200 dark:divide-slate-800">{children}</div>
    </article>
  );
}

export function LegalSection({ id, title, children }: { id?: string; title: string; children: ReactNode }) {
  const headingId =
    id ??
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
  return (
    <section aria-labelledby={headingId} className="py-8">
      <h2 id={headingId} className="text-2xl font-bold">
        {title}
      </h2>
      <div className={proseClass}>{children}</div>
    </section>
  );
}
