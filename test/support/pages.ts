import { expect } from "vitest";
import { get } from "./worker";

/**
 * Follows a list's "Older"/"More" link (an `<a>` with `data-testid={linkTestId}`) from `start`
 * until there is none, as a browser without JavaScript would; returns each page's items in
 * page order (what `items` reads from a page's HTML) and the paths visited.
 */
export async function walkPages(
  start: string,
  cookie: string,
  linkTestId: string,
  items: (html: string) => string[],
  maxPages = 100,
) {
  const pages: string[][] = [];
  const paths: string[] = [];
  let path: string | null = start;
  while (path && pages.length < maxPages) {
    const res = await get(path, { cookie });
    expect(res.status, path).toBe(200);
    const html = await res.text();
    pages.push(items(html));
    paths.push(path);
    path = linkHref(html, linkTestId);
  }
  return { pages, paths };
}

/** The decoded href of the `<a data-testid={testId}>` on a page, or null. */
export function linkHref(html: string, testId: string): string | null {
  const a = new RegExp(`<a[^>]*data-testid="${testId}"[^>]*>`).exec(html)?.[0];
  const href = a && /href="([^"]*)"/.exec(a)?.[1];
  return href ? href.replace(/&amp;/g, "&") : null;
}
