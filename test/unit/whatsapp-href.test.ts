import { describe, expect, it } from "vitest";
import { shareText, whatsAppHref } from "~/components/ride-ui";

describe("whatsAppHref", () => {
  it("carries the message exactly, whatever it holds, escaping only what a query value cannot hold", () => {
    const texts = [
      shareText({ fromLocation: "HSR Layout", toLocation: "Whitefield ITPL", date: "2026-12-02", time: "08:30" }) +
        " https://loopride.example/rides/abc123",
      "R&D Park → #5 Main + 2% off? a=b @ 10:00, ok/no",
      "ಬೆಂಗಳೂರು → Koramangala",
    ];
    for (const text of texts) {
      const href = whatsAppHref(text);
      expect(href.startsWith("https://wa.me/?text=")).toBe(true);
      const value = href.slice("https://wa.me/?text=".length);
      // Nothing in the value can end it or start another parameter or a fragment.
      expect(value).not.toMatch(/[&#=?+ "]/);
      expect(new URL(href).searchParams.get("text")).toBe(text);
      expect(decodeURIComponent(value)).toBe(text);
    }
    expect(whatsAppHref("A → B, Dec 2, 2026, 8:30 AM https://x.example/rides/1")).toBe(
      "https://wa.me/?text=A%20→%20B,%20Dec%202,%202026,%208:30%20AM%20https://x.example/rides/1",
    );
  });
});
