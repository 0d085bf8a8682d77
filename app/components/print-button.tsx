import { useEffect, useState } from "react";
import { buttonClass } from "./styles";

/** window.print() with JavaScript; without it, a hint to use the browser's own Print. */
export function PrintButton() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!hydrated)
    return <p className="text-sm text-slate-700">Use your browser's Print command to save this receipt as PDF.</p>;
  return (
    <button type="button" onClick={() => window.print()} className={buttonClass}>
      Print or save as PDF
    </button>
  );
}
