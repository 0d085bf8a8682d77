import { Link } from "@remix-run/react";
import { textLinkClass } from "./styles";

/** "Report or block" link next to a person on a ride or in a chat (issue 16). */
export function SafetyLink({
  personId,
  from,
  name,
}: {
  personId: string;
  from: "ride" | "chat" | "profile";
  name?: string | null;
}) {
  return (
    <Link to={`/people/${personId}?from=${from}`} className={textLinkClass} data-testid="report-or-block">
      Report or block{name ? <span className="sr-only"> {name}</span> : null}
    </Link>
  );
}
