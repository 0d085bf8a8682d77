// Small pieces several ride screens share, in a module of their own (no place list, no
// ride widgets) so the pages that only need these keep their initial JS small.
import type { ReactNode } from "react";

export const cardClass = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900";
export const smallButtonClass =
  "inline-flex items-center justify-center rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800";


/** Back one page with JavaScript; without it, a plain link. */
export function BackLink({ href, children, className = smallButtonClass }: { href: string; children: ReactNode; className?: string }) {
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
