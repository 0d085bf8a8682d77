// The dashboard's four figures (the loader's `stats`), a definition list of cards.
const STAT_CARDS = [
  { key: "totalRides", label: "Total Rides", caption: "Last 30 days", testId: "stat-total-rides" },
  { key: "coPassengers", label: "Co-Passengers", caption: "Connected with", testId: "stat-co-passengers" },
  { key: "upcomingRides", label: "Upcoming Rides", caption: "Active rides", testId: "stat-upcoming-rides" },
  { key: "trafficHoursSaved", label: "Traffic Hours Saved", caption: "Estimated time", testId: "stat-traffic-hours" },
] as const;

export function DashboardStats({ stats }: { stats: Record<(typeof STAT_CARDS)[number]["key"], number> }) {
  return (
    <section aria-labelledby="stats-title">
      <h2 id="stats-title" className="sr-only">
        Your stats
      </h2>
      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {STAT_CARDS.map((c) => (
          <div key={c.key} className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
            <dt className="text-sm font-medium text-slate-700 dark:text-slate-300">{c.label}</dt>
            <dd className="mt-1 text-3xl font-bold text-slate-900 dark:text-slate-50" data-testid={c.testId}>
              {stats[c.key]}
            </dd>
            <dd className="text-xs text-slate-600 dark:text-slate-400">{c.caption}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
