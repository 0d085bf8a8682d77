import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

// The page's JavaScript was started by a script element React did not render (ADR 0061,
// utils/paint-first.server.ts); it has run, and hydration must not meet it.
document.querySelector("script[data-lr-boot]")?.remove();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
