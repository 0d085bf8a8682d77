export function initials(name: string | null | undefined): string {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "?";
  return (parts[0][0] + (parts.length > 1 ? parts[parts.length - 1][0] : "")).toUpperCase();
}

// One utility per size (app/app.css): a list repeats the avatar on every row (ADR 0025).
const SIZES = { sm: "lr-avatar-sm", md: "lr-avatar-md", lg: "lr-avatar-lg" };

/**
 * Avatar image over initials. A photo the viewer may not see answers 404 (e.g. a driver met
 * only in Discover); a broken image is the one case where an <img> draws its ::before, so
 * that pseudo-element repeats the initials over the browser's broken-image icon, with or
 * without JavaScript.
 */
export function Avatar({
  name,
  url,
  size = "md",
}: {
  name: string | null | undefined;
  url?: string | null;
  size?: keyof typeof SIZES;
}) {
  const text = name ? initials(name) : "?";
  return (
    <span aria-hidden="true" className={SIZES[size]}>
      {text}
      {url ? (
        <img
          src={url}
          alt=""
          data-initials={text}
          loading="lazy"
          referrerPolicy="no-referrer"
          className="avatar-photo absolute inset-0 h-full w-full rounded-full object-cover"
        />
      ) : null}
    </span>
  );
}
