// Named class strings for the pieces every page repeats (buttons, inputs, cards, links).
// Use these instead of writing the Tailwind classes again, so a restyle happens in one place.

export const inputClass =
  "block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 placeholder:text-slate-500 focus:border-emerald-700 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 aria-[invalid=true]:border-red-600";
export const buttonClass =
  "inline-flex items-center justify-center rounded-md bg-emerald-700 px-4 py-2 font-semibold text-white hover:bg-emerald-800 disabled:cursor-not-allowed disabled:opacity-60";
export const secondaryButtonClass =
  "inline-flex items-center justify-center rounded-md border border-slate-400 px-4 py-2 font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-900";

export const cardClass = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900";
export const smallButtonClass =
  "inline-flex items-center justify-center rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800";
export const smallPrimaryClass =
  "inline-flex items-center justify-center rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-emerald-800 aria-disabled:cursor-not-allowed aria-disabled:bg-slate-400 disabled:cursor-not-allowed disabled:bg-slate-400";
export const dangerButtonClass =
  "inline-flex items-center justify-center rounded-md border border-red-700 px-3 py-1.5 text-sm font-semibold text-red-800 hover:bg-red-50 dark:border-red-500 dark:text-red-300 dark:hover:bg-red-950";

/** An inline text link inside a page (Back to rides, View ride...). */
export const textLinkClass = "text-sm font-medium text-emerald-800 underline dark:text-emerald-300";
/** A bordered section without a background (dashboard and completion panels). */
export const panelClass = "rounded-xl border border-slate-200 p-6 dark:border-slate-800";
/** Secondary text beside a heading or value (captions, hints, empty states). */
export const mutedTextClass = "text-slate-700 dark:text-slate-300";
/** A card's small detail line (date and time, seats). */
export const detailTextClass = "text-sm text-slate-800 dark:text-slate-200";
