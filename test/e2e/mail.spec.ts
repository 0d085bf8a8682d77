import { expect, test, type Page } from "@playwright/test";
import { newPage, offerRide, requestSeat, signIn, signUpAndOnboard, uniqueEmail } from "../support/e2e";

// Issue 15: e-mail through the development mailbox (DEV_MAILBOX=1 in scripts/e2e-server.mjs),
// with JavaScript on and off. Every journey makes its own people, so both runs stay apart.

/** Opens the newest e-mail to `to` whose subject starts with `subject` in /dev/mailbox. */
async function openMail(page: Page, to: string, subject: string) {
  await page.goto("/dev/mailbox");
  const item = page
    .getByRole("listitem")
    .filter({ hasText: `To ${to.toLowerCase()}` })
    .filter({ hasText: subject })
    .first();
  await item.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(subject);
}

test("forgot password → mailbox → reset → sign in with the new password; the old session is gone", async ({
  page,
  browser,
}, info) => {
  const { email } = await signUpAndOnboard(page, { fullName: "Meera Joshi", email: uniqueEmail("reset") });
  // Someone (the owner, on another device) asks for a reset.
  const other = await newPage(browser, info.project.name);
  await other.goto("/login");
  await other.getByRole("link", { name: "Forgot password?" }).click();
  await expect(other).toHaveURL(/\/forgot-password$/);
  await other.getByLabel("E-mail address").fill(email);
  await other.getByRole("button", { name: "Send reset link" }).click();
  await expect(other).toHaveURL(/\/login$/);
  await expect(other.getByTestId("toast")).toContainText("Check your e-mail");

  await openMail(other, email, "Reset your LoopRide password");
  await other
    .getByRole("link", { name: /\/reset-password\?token=/ })
    .first()
    .click();
  await expect(other.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await other.getByLabel("New password", { exact: true }).fill("rava-idli-2027");
  await other.getByLabel("New password again").fill("rava-idli-2027");
  await other.getByRole("button", { name: "Save new password" }).click();
  await expect(other).toHaveURL(/\/dashboard$/);
  await expect(other.getByTestId("toast")).toContainText("Password changed");

  // The first device's session ended with the reset.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
  // The new password signs in.
  await signIn(page, email, "rava-idli-2027");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a ride request e-mails the driver (verified through the mailbox) with a working link; its unsubscribe link turns e-mail off", async ({
  page,
  browser,
}, info) => {
  const driver = await signUpAndOnboard(page, { fullName: "Farhan Ali", email: uniqueEmail("driver") });
  // New addresses get no ride e-mails until confirmed: confirm through the sign-up e-mail.
  await openMail(page, driver.email, "Confirm your e-mail address for LoopRide");
  await page
    .getByRole("link", { name: /\/verify-email\?token=/ })
    .first()
    .click();
  await page.getByRole("button", { name: "Yes, confirm my e-mail" }).click();
  await expect(page).toHaveURL(/\/dashboard\/profile$/);
  await expect(page.getByText("✓ Verified")).toBeVisible();
  const rideId = await offerRide(page, { from: "Indiranagar", to: "Manyata Tech Park", cost: "360" });

  const rider = await newPage(browser, info.project.name);
  await signUpAndOnboard(rider, { fullName: "Lakshmi Menon", email: uniqueEmail("rider") });
  await requestSeat(rider, rideId);

  await openMail(page, driver.email, "New ride request: Indiranagar → Manyata Tech Park");
  await expect(
    page.getByText("Lakshmi Menon requested 1 seat on your ride from Indiranagar to Manyata Tech Park."),
  ).toBeVisible();
  await expect(page.getByText("Seat price: ₹120.00")).toBeVisible();
  await page
    .getByRole("link", { name: new RegExp(`/rides/${rideId}$`) })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/rides/${rideId}$`));
  await expect(page.getByText("Lakshmi Menon").first()).toBeVisible();

  // The unsubscribe link at the foot of the same e-mail.
  await openMail(page, driver.email, "New ride request: Indiranagar → Manyata Tech Park");
  await page
    .getByRole("link", { name: /\/unsubscribe\?token=/ })
    .first()
    .click();
  await page.getByRole("button", { name: "Turn off e-mail notifications" }).click();
  await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
  await page.goto("/dashboard/settings");
  await expect(page.getByTestId("toggle-emailNotifications")).toHaveAttribute("aria-checked", "false");
});
