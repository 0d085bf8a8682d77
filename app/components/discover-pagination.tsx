import { Link } from "@remix-run/react";
import { secondaryButtonClass } from "~/components/forms";

type Cursor = { after?: string | null; before?: string | null };

/**
 * A page's link: "Next page" carries the last ride shown (`after`), "Previous page" the first
 * (`before`); page 1 and a page number alone count from the start (ADR 0038).
 */
function pageHref(search: string, page: number, cursor: Cursor = {}) {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete("page");
  else params.set("page", String(page));
  for (const key of ["after", "before"] as const) {
    const value = page > 1 ? cursor[key] : null;
    if (value) params.set(key, value);
    else params.delete(key);
  }
  const qs = params.toString();
  return qs ? `/rides?${qs}` : "/rides";
}

export function DiscoverPagination(props: {
  search: string;
  page: number;
  reachedStart: boolean;
  hasMore: boolean;
  nextAfter: string | null;
  prevBefore: string | null;
}) {
  const { search, page, hasMore } = props;
  const hasPrevious = page > 1 && !props.reachedStart;
  if (!hasPrevious && !hasMore) return null;
  return (
    <nav aria-label="Pagination" className="flex justify-between">
      {hasPrevious ? (
        <Link
          to={pageHref(search, page - 1, { before: props.prevBefore })}
          className={secondaryButtonClass}
          data-testid="previous-page"
        >
          Previous page
        </Link>
      ) : (
        <span />
      )}
      {hasMore ? (
        <Link
          to={pageHref(search, page + 1, { after: props.nextAfter })}
          className={secondaryButtonClass}
          data-testid="next-page"
        >
          Next page
        </Link>
      ) : null}
    </nav>
  );
}
