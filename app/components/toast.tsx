import { useEffect, useState } from "react";

/** Client-side toasts (live notifications) are dispatched as this window event to the one toast slot in root. */
export const TOAST_EVENT = "loopride:toast";

export function showToast(toast: ToastData) {
  window.dispatchEvent(new CustomEvent(TOAST_EVENT, { detail: toast }));
}

export type ToastData = { title: string; description?: string; type?: "success" | "error" | "info" };

// Rendered by the server from the flash cookie, so it shows without JavaScript. With
// JavaScript it hides itself after a few seconds and can be dismissed.
export function ToastView({ toast }: { toast: ToastData }) {
  const [open, setOpen] = useState(true);
  const key = `${toast.title}|${toast.description ?? ""}`;
  useEffect(() => {
    setOpen(true);
    const timer = setTimeout(() => setOpen(false), toast.title === "Welcome bonus applied!" ? 5000 : 4000);
    return () => clearTimeout(timer);
  }, [key, toast.title]);
  if (!open) return null;
  const tone =
    toast.type === "error"
      ? "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
      : "border-emerald-300 bg-white text-slate-900 dark:border-emerald-800 dark:bg-slate-900 dark:text-slate-100";
  return (
    <div
      role={toast.type === "error" ? "alert" : "status"}
      aria-live="polite"
      data-testid="toast"
      // pointer-events-none: a toast never blocks the page under it (only its button takes
      // clicks); toast-auto hides it after 8 s with CSS, so also without JS.
      className={`toast-auto pointer-events-none fixed bottom-4 right-4 z-50 max-w-sm rounded-lg border p-4 shadow-lg ${tone}`}
    >
      <div className="flex items-start gap-3">
        <div className="flex-1">
          <p className="font-semibold">{toast.title}</p>
          {toast.description ? <p className="mt-1 text-sm">{toast.description}</p> : null}
        </div>
        <button
          type="button"
          onClick={() => setOpen(false)}
          className="pointer-events-auto rounded px-1 text-sm text-slate-600 hover:text-slate-900 dark:text-slate-300"
          aria-label="Dismiss notification"
        >
          ✕
        </button>
      </div>
    </div>
  );
}
