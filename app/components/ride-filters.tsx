import { Form, Link } from "@remix-run/react";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/forms";
import { cardClass } from "~/components/ride-ui";
import { MAX_COST_CHOICES } from "~/domain/rides";
import type { DiscoverFilters } from "~/schemas/ride-search";

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
              Max cost per seat (₹)
            </label>
            {/* A number field, not a slider: it shows its value without JavaScript and "Any" is
                the empty field, not the end of the scale; the browser keeps it to the steps.
                A select of the 51 steps measured 60.5 KB on Discover's next page (ADR 0054). */}
            <input
              id="upto"
              name="upto"
              type="number"
              inputMode="numeric"
              min={MAX_COST_CHOICES.min}
              max={MAX_COST_CHOICES.max}
              step={MAX_COST_CHOICES.step}
              placeholder="Any"
              defaultValue={filters.maxCost ?? ""}
              aria-describedby="upto-hint"
              className={inputClass}
            />
            <p id="upto-hint" className="text-xs text-slate-700 dark:text-slate-300">
              ₹0 to ₹500 in steps of ₹10; empty for any price.
            </p>
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
