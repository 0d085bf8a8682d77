// Issue 16, item 1: which domains a community may require, and which addresses are at them.
import { describe, expect, it } from "vitest";
import { DOMAIN_FREE_MAIL, DOMAIN_INVALID, isAddressAt, parseWorkDomain } from "~/domain/work-email";
import { verifiedBadgeText } from "~/components/verified-badge";

describe("work e-mail domains", () => {
  it("accepts a workplace's domain, trimmed, lower case, without a leading @", () => {
    expect(parseWorkDomain(" @Infosys.COM ")).toEqual({ domain: "infosys.com" });
    expect(parseWorkDomain("tcs.co.in")).toEqual({ domain: "tcs.co.in" });
    expect(parseWorkDomain("in.ibm.com")).toEqual({ domain: "in.ibm.com" });
  });

  it("refuses free-mail providers and anything that is not a domain", () => {
    for (const d of ["gmail.com", "Yahoo.com", "outlook.com", "hotmail.com", "rediffmail.com", "yahoo.co.in"])
      expect(parseWorkDomain(d), d).toEqual({ error: DOMAIN_FREE_MAIL });
    for (const d of [
      "",
      "infosys",
      "a@infosys.com",
      "-infosys.com",
      "infosys-.com",
      "infosys..com",
      "infosys.c0m",
      "infosys.com/",
      "x".repeat(250) + ".com",
    ])
      expect(parseWorkDomain(d), d).toEqual({ error: DOMAIN_INVALID });
  });

  it("an address at the domain or a subdomain counts; look-alikes do not", () => {
    expect(isAddressAt("rahul@infosys.com", "infosys.com")).toBe(true);
    expect(isAddressAt("rahul@blr.infosys.com", "infosys.com")).toBe(true);
    for (const e of [
      "rahul@notinfosys.com",
      "rahul@infosys.com.evil.test",
      "infosys.com",
      "@infosys.com",
      "rahul@gmail.com",
    ])
      expect(isAddressAt(e, "infosys.com"), e).toBe(false);
  });

  it("the badge says the domain in its community, 'Verified workplace' elsewhere, nothing without one", () => {
    expect(verifiedBadgeText("infosys.com")).toBe("Verified infosys.com");
    expect(verifiedBadgeText("")).toBe("Verified workplace");
    expect(verifiedBadgeText(null)).toBeNull();
  });
});
