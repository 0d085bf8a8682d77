// Small pieces several ride screens share, in a module of their own (no place list, no
// ride widgets) so the pages that only need these keep their initial JS small.
import type { ReactNode } from "react";
import { smallButtonClass } from "./styles";

export { cardClass, smallButtonClass } from "./styles";

/** Back one page with JavaScript; without it, a plain link. */
export function BackLink({
  href,
  children,
  className = smallButtonClass,
}: {
  href: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <a
      href={href}
      className={className}
      onClick={(e) => {
        if (window.history.length > 1) {
          e.preventDefault();
          window.history.back();
        }
      }}
    >
      {children}
    </a>
  );
}
