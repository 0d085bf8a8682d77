export function initials(name: string | null | undefined): string {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "?";
  return (parts[0][0] + (parts.length > 1 ? parts[parts.length - 1][0] : "")).toUpperCase();
}

const SIZES = { sm: "h-8 w-8 text-xs", md: "h-10 w-10 text-sm", lg: "h-16 w-16 text-xl" };

/**
 * Avatar image over initials. The photo covers the initials when it loads; when it does
 * not (a photo the viewer may not see answers 404, e.g. a driver met only in Discover),
 * the empty-alt image draws nothing and the initials show, with or without JavaScript.
 */
export function Avatar({ name, url, size = "md" }: { name: string | null | undefined; url?: string | null; size?: keyof typeof SIZES }) {
  return (
    <span
      aria-hidden="true"
      className={`${SIZES[size]} relative inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-emerald-100 font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100`}
    >
      {name ? initials(name) : "?"}
      {url ? (
        <img src={url} alt="" loading="lazy" className="absolute inset-0 h-full w-full rounded-full object-cover" referrerPolicy="no-referrer" />
      ) : null}
    </span>
  );
}
