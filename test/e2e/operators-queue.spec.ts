import { expect, test, type Browser } from "@playwright/test";
import { offerRide, signIn, signUpAndOnboard, uniqueEmail } from "../support/e2e";

// Issue 37, item 7 (JS on and off): a report about a stranger reaches LoopRide's operators, its
// reporter is told so, and an operator (the demo city's: OPERATOR_EMAILS in
// scripts/e2e-server.mjs) reads it, suspends the account and closes another report. Each run
// signs up its own people, so the two projects never share state.

const OPERATOR = "ananya@demo.loopride.in";
const PASSWORD = "green-commute-2026";

async function freshPage(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: test.info().project.name === "js" });
  return { context, page: await context.newPage() };
}

test("a report about a stranger reaches the operators' queue; the operator suspends and closes", async ({
  browser,
}) => {
  const run = Math.random().toString(36).slice(2, 7);
  const strangerEmail = uniqueEmail("stranger");
  const stranger = await freshPage(browser);
  await signUpAndOnboard(stranger.page, { fullName: `Sunil Stranger ${run}`, email: strangerEmail });
  const rideId = await offerRide(stranger.page);

  const reporter = await freshPage(browser);
  await signUpAndOnboard(reporter.page, { fullName: `Asha Reporter ${run}`, car: null });
  await reporter.page.goto(`/rides/${rideId}`);
  await reporter.page.getByTestId("report-or-block").first().click();
  await expect(reporter.page).toHaveURL(/\/people\/[a-z0-9]+\?from=ride/);
  await reporter.page.getByLabel("Reason").selectOption("no_show");
  await reporter.page.getByLabel("What happened (optional)").fill(`Never turned up ${run}`);
  await reporter.page.getByRole("button", { name: "Send report" }).click();
  // Honest wording: no community admin reads this one, LoopRide's operators do.
  await expect(reporter.page.getByTestId("toast")).toContainText("LoopRide's operators will review it");
  await expect(reporter.page.getByTestId("toast")).not.toContainText("admins of the communities");

  // A second report, to be closed.
  const other = await freshPage(browser);
  await signUpAndOnboard(other.page, { fullName: `Chitra Other ${run}`, car: null });
  await other.page.goto(`/rides/${rideId}`);
  await other.page.getByTestId("report-or-block").first().click();
  await other.page.getByLabel("Reason").selectOption("other");
  await other.page.getByLabel("What happened (optional)").fill(`Rude in the chat ${run}`);
  await other.page.getByRole("button", { name: "Send report" }).click();
  await expect(other.page.getByTestId("toast")).toContainText("LoopRide's operators will review it");

  // Nobody but an operator sees the queue.
  const notFound = await reporter.page.goto("/operators/reports");
  expect(notFound?.status()).toBe(404);

  const op = await freshPage(browser);
  await signIn(op.page, OPERATOR);
  await op.page.goto("/operators/reports");
  await expect(op.page.getByRole("heading", { name: "Operators' queue" })).toBeVisible();
  const first = op.page.getByTestId("operator-report").filter({ hasText: `Never turned up ${run}` });
  await expect(first).toContainText(`Asha Reporter ${run}`);
  await expect(first).toContainText(`Sunil Stranger ${run}`);
  await expect(first).toContainText("They share no community.");
  await first.getByRole("button", { name: "Suspend account" }).click();
  await expect(op.page.getByTestId("toast")).toContainText("Account suspended");
  await expect(op.page.getByTestId("operator-report").filter({ hasText: `Never turned up ${run}` })).toHaveCount(0);

  const second = op.page.getByTestId("operator-report").filter({ hasText: `Rude in the chat ${run}` });
  await second.getByRole("button", { name: "Close" }).click();
  await expect(op.page.getByTestId("toast")).toContainText("Report closed");
  await expect(op.page.getByTestId("operator-report").filter({ hasText: `Rude in the chat ${run}` })).toHaveCount(0);

  // The suspended person is signed out everywhere and cannot sign in again.
  await stranger.page.goto("/dashboard");
  await expect(stranger.page).toHaveURL(/\/login/);
  await stranger.page.getByLabel("E-mail or mobile number").fill(strangerEmail);
  await stranger.page.getByLabel("Password").fill(PASSWORD);
  await stranger.page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(stranger.page.getByTestId("toast")).toContainText("This account is suspended by LoopRide's operators.");
  await expect(stranger.page).toHaveURL(/\/login$/);

  for (const p of [stranger, reporter, other, op]) await p.context.close();
});
