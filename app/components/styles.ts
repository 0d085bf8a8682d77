// Named class strings for the pieces every page repeats (buttons, inputs, cards, links).
// Use these instead of writing the Tailwind classes again, so a restyle happens in one place.
// The most repeated ones are single utilities defined in app/app.css (@utility lr-*): a list
// of 20 cards repeats them dozens of times, and their long class lists were a third of a
// page's HTML (issue 17: every page <= 60 KB; ADR 0025). A class added beside one of them
// still overrides it (Tailwind sorts a one-property utility after a many-property one).

export const inputClass = "lr-input";
export const buttonClass = "lr-btn";
export const secondaryButtonClass = "lr-btn-secondary";

export const cardClass = "lr-card";
export const smallButtonClass = "lr-btn-sm";
export const smallPrimaryClass = "lr-btn-sm-primary";
export const dangerButtonClass = "lr-btn-danger";

/** An inline text link inside a page (Back to rides, View ride...). */
export const textLinkClass = "lr-link";
/** A bordered section without a background (dashboard and completion panels). */
export const panelClass = "rounded-xl border border-slate-200 p-6 dark:border-slate-800";
/** Secondary text beside a heading or value (captions, hints, empty states). */
export const mutedTextClass = "lr-muted";
/** A card's small detail line (date and time, seats). */
export const detailTextClass = "lr-detail";
