import { Link } from "@remix-run/react";
import { smallButtonClass } from "./styles";

/** A keyset page's "More ..." link (ADR 0025): a plain link, so it works without JavaScript; nothing when there is no next page. */
export function MoreLink({ href, testId, label }: { href: string | null; testId: string; label: string }) {
  if (!href) return null;
  return (
    <p className="text-center">
      <Link to={href} className={smallButtonClass} data-testid={testId}>
        {label}
      </Link>
    </p>
  );
}
