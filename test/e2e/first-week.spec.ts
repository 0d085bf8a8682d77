import { expect, test, type Page } from "@playwright/test";
import { newPage, signUp, signUpAndOnboard, uniqueEmail, uniquePhone } from "../support/e2e";

// Issue 38: a new member's first week, with JavaScript on and off, on the seeded demo city.
// A rider without a car signs up giving their locality, is offered their commute search from
// it, finds a ride within 3 km, saves the search, is asked to confirm their e-mail, confirms
// it from the development mailbox, and the next alert (a driver publishes a matching ride)
// arrives by e-mail.

/** The newest e-mail to `to` whose subject starts with `subject`, opened (it may still be on its way). */
async function openMail(page: Page, to: string, subject: string) {
  const item = page
    .getByRole("listitem")
    .filter({ hasText: `To ${to.toLowerCase()}` })
    .filter({ hasText: subject })
    .first();
  await expect(async () => {
    await page.goto("/dev/mailbox");
    await expect(item).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await item.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(subject);
}

// Each run has a locality of its own (6 km apart), so one run's driver never answers the other
// run's saved search: its one alert a day would then go out before that rider confirmed.
const HOME = { js: "Malleshwaram", "no-js": "Basavanagudi" } as Record<string, string>;

test("a new rider from a common locality: commute search, a ride within 3 km, saved search, e-mail confirmed, the next alert e-mailed", async ({
  page,
  browser,
}, info) => {
  const home = HOME[info.project.name] ?? "Malleshwaram";
  const email = uniqueEmail("first-week");
  await signUp(page, { fullName: "Divya Newcomer", email });
  // Onboarding, as a rider without a car who lives in a common locality.
  await page.getByLabel("Mobile number").fill(uniquePhone());
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("No, I don't").check();
  await page.getByLabel("Home locality (optional)").fill(home);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Step 3 of 4")).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("definition").filter({ hasText: home })).toBeVisible();
  await page.getByRole("button", { name: "Complete Setup" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The dashboard leads with finding a ride, not with Create Ride.
  const commute = page.getByTestId("find-your-commute");
  await expect(commute.getByRole("heading", { name: "Find your commute" })).toBeVisible();
  await expect(page.getByText("Create your first ride")).toHaveCount(0);
  // The search starts from the locality given at onboarding.
  await expect(commute.getByLabel("From (your locality)")).toHaveValue(home);
  await commute.getByLabel("To (where you work)").fill("Manyata Tech Park");
  await commute.getByRole("button", { name: "Find rides" }).click();
  await expect(page).toHaveURL(new RegExp(`/rides\\?.*from=${home}`));
  const date = new URL(page.url()).searchParams.get("date")!;

  // The demo city has a ride within 3 km of home to Manyata Tech Park around 9:00.
  const pickup = page.getByTestId("ride-card").first().getByTestId("pickup-distance");
  await expect(pickup).toContainText(`from ${home}`);
  const walk = /Pickup ([\d.]+) (m|km)/.exec((await pickup.textContent()) ?? "");
  expect(walk, "a pickup distance").not.toBeNull();
  expect(Number(walk![1]) / (walk![2] === "m" ? 1000 : 1)).toBeLessThanOrEqual(3);

  const save = page.getByRole("form", { name: "Save this search" });
  await save.getByRole("button", { name: "Save this search" }).click();
  await expect(page.getByTestId("toast")).toContainText("Search saved");
  await expect(page.getByTestId("saved-search").filter({ hasText: `${home} → Manyata Tech Park` })).toHaveCount(1);

  // Asked to confirm the address, then confirmed from the sign-up e-mail.
  await page.goto("/dashboard");
  await expect(page.getByTestId("confirm-email-banner")).toContainText("Confirm your e-mail to get ride e-mails");
  await openMail(page, email, "Confirm your e-mail address for LoopRide");
  await page
    .getByRole("link", { name: /\/verify-email\?token=/ })
    .first()
    .click();
  await page.getByRole("button", { name: "Yes, confirm my e-mail" }).click();
  await expect(page.getByText("✓ Verified")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByTestId("confirm-email-banner")).toHaveCount(0);

  // A driver publishes a matching ride: the alert reaches the rider by e-mail.
  const driver = await newPage(browser, info.project.name);
  await signUpAndOnboard(driver, { fullName: "Karthik Wheels", email: uniqueEmail("first-week-driver") });
  await driver.goto("/rides/create");
  await driver.getByLabel("Pickup location").fill(home);
  await driver.getByLabel("Drop location").fill("Manyata Tech Park");
  await driver.getByLabel("Date").fill(date);
  await driver.getByLabel("Time").fill("09:05");
  await driver.getByLabel("Available seats").selectOption("3");
  await driver.getByLabel("Trip cost (₹, the whole trip)").fill("300");
  await driver.getByRole("button", { name: "Create Ride", exact: true }).click();
  await expect(driver).toHaveURL(/\/dashboard\/rides$/);
  await driver.context().close();

  await openMail(page, email, `New ride for your saved search: ${home} → Manyata Tech Park`);
  await expect(page.getByText("You get this alert because of a search you saved.")).toBeVisible();
});
