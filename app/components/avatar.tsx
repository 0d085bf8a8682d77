export function initials(name: string | null | undefined): string {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "?";
  return (parts[0][0] + (parts.length > 1 ? parts[parts.length - 1][0] : "")).toUpperCase();
}

const SIZES = { sm: "h-8 w-8 text-xs", md: "h-10 w-10 text-sm", lg: "h-16 w-16 text-xl" };

/** Avatar image or initials; a missing profile shows no avatar at all. */
export function Avatar({ name, url, size = "md" }: { name: string | null | undefined; url?: string | null; size?: keyof typeof SIZES }) {
  if (url) {
    return <img src={url} alt="" className={`${SIZES[size]} shrink-0 rounded-full object-cover`} referrerPolicy="no-referrer" />;
  }
  return (
    <span
      aria-hidden="true"
      className={`${SIZES[size]} inline-flex shrink-0 items-center justify-center rounded-full bg-emerald-100 font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100`}
    >
      {name ? initials(name) : "?"}
    </span>
  );
}
