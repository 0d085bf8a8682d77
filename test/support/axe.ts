import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// The WCAG 2.0/2.1 A and AA rules plus axe's best practices (issue 9, item 10).
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

export type AxeFinding = { page: string; id: string; impact: string; help: string; targets: string[]; summary: string };

/**
 * Runs axe-core on the page as it is now and returns the serious and critical violations,
 * one entry per rule, with the CSS targets and axe's failure summary so that a failing test
 * says exactly what to fix and where.
 */
export async function seriousViolations(page: Page, label: string): Promise<AxeFinding[]> {
  // Wait for the page's own rendering (fonts, the toast fade-in) to settle first.
  await page.waitForLoadState("load");
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      page: label,
      id: v.id,
      impact: v.impact ?? "",
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
      summary: v.nodes
        .slice(0, 3)
        .map((n) => n.failureSummary?.replace(/\s+/g, " ").trim())
        .join(" | "),
    }));
}

export function formatFindings(findings: AxeFinding[]) {
  return findings
    .map((f) => `[${f.page}] ${f.id} (${f.impact}): ${f.help}\n    targets: ${f.targets.slice(0, 6).join(", ")}${f.targets.length > 6 ? ` (+${f.targets.length - 6} more)` : ""}\n    ${f.summary}`)
    .join("\n");
}

/** Asserts zero serious or critical violations on the current page (soft: every page of a run is reported). */
export async function expectAccessible(page: Page, label: string) {
  const findings = await seriousViolations(page, label);
  expect.soft(findings.length, `axe found serious/critical violations:\n${formatFindings(findings)}`).toBe(0);
  return findings;
}
