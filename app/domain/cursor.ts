// Keyset cursors for "Older"/"More" links (ADR 0025): a page after a cursor continues
// strictly after the last row shown in the list's (timestamp, id) order, so a page is one
// indexed range read however deep it is, and rows sharing a timestamp are neither repeated
// nor skipped (the id breaks the tie). Anything unreadable is no cursor: the first page.

export type Cursor = { at: number; id: string };

/** "<timestamp>.<id>", as it travels in a query string. */
export const cursorParam = (at: number, id: string) => `${at}.${id}`;

export function parseCursor(value: string | null | undefined): Cursor | null {
  const m = /^(\d{1,15})\.([A-Za-z0-9-]{1,64})$/.exec(value ?? "");
  return m ? { at: Number(m[1]), id: m[2] } : null;
}
