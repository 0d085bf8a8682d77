import { Form, Link } from "@remix-run/react";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/forms";
import { cardClass } from "~/components/ride-ui";
import { MAX_COST_CHOICES } from "~/domain/rides";
import type { DiscoverFilters } from "~/schemas/ride-search";

const COST_CHOICES = Array.from(
  { length: (MAX_COST_CHOICES.max - MAX_COST_CHOICES.min) / MAX_COST_CHOICES.step + 1 },
  (_, i) => MAX_COST_CHOICES.min + i * MAX_COST_CHOICES.step,
);

/** The steps, and a cap from an old link that is not one of them (maxCost=45), so the select shows it. */
const costChoices = (cap: number | null) =>
  cap === null || COST_CHOICES.includes(cap) ? COST_CHOICES : [...COST_CHOICES, cap].sort((a, b) => a - b);

type Props = { filters: Pick<DiscoverFilters, "q" | "maxCost" | "community" | "women" | "date">; today: string };

/** Discover's text search and filters: a GET form, so a filtered list is a link to share. */
export function RideFilterForm({ filters, today }: Props) {
  const filtersOpen = filters.maxCost !== null || filters.community || filters.women || Boolean(filters.date);
  return (
    <Form method="get" action="/rides" className={`${cardClass} space-y-4`} role="search">
      <label htmlFor="q" className="-mb-2 block text-sm font-medium">
        Search rides
      </label>
      <div className="flex gap-2">
        <input
          id="q"
          name="q"
          type="search"
          defaultValue={filters.q}
          placeholder="Search by place, e.g. Koramangala"
          className={inputClass}
        />
        <button type="submit" className={buttonClass}>
          Search
        </button>
      </div>
      <details open={filtersOpen || undefined} className="group">
        <summary className="cursor-pointer select-none text-sm font-semibold text-emerald-800 dark:text-emerald-300">
          Filters
        </summary>
        <div className="mt-3 grid gap-4 sm:grid-cols-3">
          <div>
            <label htmlFor="upto" className="mb-1 block text-sm font-medium">
              Max cost per seat
            </label>
            {/* A select, not a slider: it says its value without JavaScript, and "Any" is a choice
                of its own rather than the end of the scale (ADR 0054). */}
            <select id="upto" name="upto" defaultValue={filters.maxCost ?? ""} className={inputClass}>
              <option value="">Any</option>
              {costChoices(filters.maxCost).map((r) => (
                <option key={r} value={r}>{`₹${r}`}</option>
              ))}
            </select>
          </div>
          <div className="flex items-center gap-2 pt-6">
            <input
              id="community"
              name="community"
              type="checkbox"
              value="1"
              defaultChecked={filters.community}
              className="h-4 w-4 accent-emerald-700"
            />
            <label htmlFor="community" className="text-sm font-medium">
              Community rides only
            </label>
          </div>
          <div className="flex items-center gap-2 pt-6">
            <input
              id="women"
              name="women"
              type="checkbox"
              value="1"
              defaultChecked={filters.women}
              className="h-4 w-4 accent-emerald-700"
            />
            <label htmlFor="women" className="text-sm font-medium">
              Women-only rides
            </label>
          </div>
          <div>
            <label htmlFor="date" className="mb-1 block text-sm font-medium">
              Date
            </label>
            <input id="date" name="date" type="date" min={today} defaultValue={filters.date} className={inputClass} />
          </div>
        </div>
        <div className="mt-3 flex gap-2">
          <button type="submit" className={buttonClass}>
            Apply filters
          </button>
          <Link to="/rides" className={secondaryButtonClass}>
            Reset
          </Link>
        </div>
      </details>
    </Form>
  );
}
