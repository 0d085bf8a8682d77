import { mutedTextClass } from "./styles";

export type Feature = { title: string; icon: string; body: string };

/** A titled section of three-up feature cards (the landing page's "Why LoopRide", How It Works' values). */
export function FeatureGrid({ id, title, items }: { id: string; title: string; items: readonly Feature[] }) {
  return (
    <section aria-labelledby={id} className="mx-auto max-w-6xl px-4 py-16">
      <h2 id={id} className="text-center text-3xl font-bold">
        {title}
      </h2>
      <div className="mt-10 grid gap-6 md:grid-cols-3">
        {items.map((f) => (
          <div key={f.title} className="rounded-xl border border-slate-200 p-6 dark:border-slate-800">
            <p aria-hidden="true" className="text-3xl">
              {f.icon}
            </p>
            <h3 className="mt-3 text-lg font-semibold">{f.title}</h3>
            <p className={`mt-2 ${mutedTextClass}`}>{f.body}</p>
          </div>
        ))}
      </div>
    </section>
  );
}
