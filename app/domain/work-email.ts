// Work e-mail domains for communities that join by a verified work address (issue 16, item 1;
// docs/decisions/0023-work-email-domain-join.md). Pure rules, shared by the form schema and the
// models.

/**
 * Free-mail providers: anyone can have an address there, so they prove no workplace. Not a
 * complete list of the world's providers; the common ones in India.
 */
export const FREE_MAIL_DOMAINS = new Set([
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "yahoo.co.in",
  "yahoo.in",
  "ymail.com",
  "rocketmail.com",
  "outlook.com",
  "outlook.in",
  "hotmail.com",
  "hotmail.co.in",
  "live.com",
  "live.in",
  "msn.com",
  "rediffmail.com",
  "rediff.com",
  "icloud.com",
  "me.com",
  "mac.com",
  "aol.com",
  "protonmail.com",
  "proton.me",
  "pm.me",
  "zoho.com",
  "zohomail.com",
  "zohomail.in",
  "yandex.com",
  "mail.com",
  "gmx.com",
  "gmx.net",
  "tutanota.com",
  "fastmail.com",
  "hey.com",
  "inbox.com",
]);

export const DOMAIN_INVALID = "Enter a workplace's e-mail domain, such as infosys.com";
export const DOMAIN_FREE_MAIL =
  "That is a free e-mail provider, which anyone can use: enter your workplace's own domain";

// Labels of letters, digits and inner hyphens; a top-level label of at least two letters.
const DOMAIN = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The domain as stored (trimmed, lower case, without a leading "@"), or the reason it is refused. */
export function parseWorkDomain(input: string): { domain: string } | { error: string } {
  const domain = input.trim().toLowerCase().replace(/^@/, "");
  if (!DOMAIN.test(domain)) return { error: DOMAIN_INVALID };
  if (FREE_MAIL_DOMAINS.has(domain)) return { error: DOMAIN_FREE_MAIL };
  return { domain };
}

/** Whether `email` (lower case) is an address at `domain` or at one of its subdomains. */
export function isAddressAt(email: string, domain: string): boolean {
  const at = email.lastIndexOf("@");
  if (at <= 0) return false;
  const host = email.slice(at + 1);
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * The mailbox an address delivers to: lower case, without a "+tag" in the local part
 * (Google Workspace and Microsoft 365 deliver a+1@ and a+2@ to a@). One mailbox verifies
 * one member of a community (issue 34, finding 8).
 */
export function normalizeMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  const local = address.slice(0, at);
  const plus = local.indexOf("+");
  return plus > 0 ? `${local.slice(0, plus)}${address.slice(at)}` : address;
}

export const DOMAIN_PUBLIC_SUFFIX =
  "That is a public suffix that anyone can register under (like co.in): enter your workplace's own domain";
