import { expect, test, type Browser, type Page } from "@playwright/test";
import { offerRide, signUpAndOnboard } from "../support/e2e";

// Issue 16 journeys (JS on and off): women-only rides, blocking, and a person's own data.
// Each journey signs up its own people, so the two projects never share state.

async function freshPage(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: test.info().project.name === "js" });
  return { context, page: await context.newPage() };
}

async function setGender(page: Page, gender: "female" | "male") {
  await page.goto("/profile-completion?step=4");
  await page.getByLabel(/^Your gender/).selectOption(gender);
  await page.getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("a woman driver's women-only ride is refused to a male rider with the clear message and hidden from his discover", async ({
  browser,
}) => {
  const her = await freshPage(browser);
  await signUpAndOnboard(her.page, { fullName: "Lakshmi Driver" });
  await setGender(her.page, "female");
  const rideId = await offerRide(her.page, { womenOnly: true });
  await expect(her.page.getByTestId("women-seats")).toContainText("Women only");

  const him = await freshPage(browser);
  await signUpAndOnboard(him.page, { fullName: "Karthik Rider", car: null });
  await setGender(him.page, "male");
  await him.page.goto("/rides");
  await expect(him.page.getByRole("heading", { name: /Discover|Find/i }).first()).toBeVisible();
  await expect(him.page.locator(`a[href="/rides/${rideId}"]`)).toHaveCount(0);
  // The seat rule's refusal is shown in place of a form that could only be refused (issue 34),
  // on the booking page and on the ride page alike.
  await him.page.goto(`/rides/${rideId}/book`);
  await expect(him.page.getByRole("alert").getByText("This ride is for women only.")).toBeVisible();
  await expect(him.page.getByRole("button", { name: "Request Seats" })).toHaveCount(0);
  await him.page.goto(`/rides/${rideId}`);
  await expect(him.page.getByText("This ride is for women only.")).toBeVisible();
  await expect(him.page.getByRole("button", { name: "Request to Join" })).toHaveCount(0);
  await her.context.close();
  await him.context.close();
});

test("a user blocks another, who can then no longer message them", async ({ browser }) => {
  const driver = await freshPage(browser);
  await signUpAndOnboard(driver.page, { fullName: "Deepa Blocker" });
  const rideId = await offerRide(driver.page);

  const rider = await freshPage(browser);
  await signUpAndOnboard(rider.page, { fullName: "Ravi Pest", car: null });
  await rider.page.goto(`/rides/${rideId}/book`);
  await rider.page.getByLabel("Seats").selectOption("1");
  await rider.page.getByRole("button", { name: "Request Seats" }).click();
  await expect(rider.page).toHaveURL(/\/booking-confirmation\//);
  // Sharing a ride, the rider may message the driver.
  await rider.page.goto(`/rides/${rideId}`);
  await rider.page.getByRole("link", { name: "Contact Driver" }).click();
  await expect(rider.page).toHaveURL(/\/dashboard\/messages\?to=/);
  const driverId = new URL(rider.page.url()).searchParams.get("to")!;
  await rider.page.getByLabel("Message", { exact: true }).fill("Hello from the rider");
  await rider.page.getByRole("button", { name: "Send" }).click();
  await expect(rider.page.getByTestId("chat-messages").getByText("Hello from the rider")).toBeVisible();

  // The driver blocks the rider from the chat.
  await driver.page.goto("/dashboard/messages");
  await driver.page.getByText("Ravi Pest").first().click();
  await expect(driver.page.getByTestId("chat-partner")).toHaveText("Ravi Pest");
  await driver.page.getByTestId("report-or-block").click();
  await expect(driver.page).toHaveURL(/\/people\/[a-z0-9]+\?from=chat/);
  await driver.page.getByRole("button", { name: "Block", exact: true }).click();
  await expect(driver.page.getByText("You blocked Ravi Pest")).toBeVisible();

  // The rider: no ride, and only the neutral refusal when trying to write.
  await rider.page.goto(`/dashboard/messages?to=${driverId}`);
  await expect(
    rider.page.getByText("You can only message people who share a community or a ride with you."),
  ).toBeVisible();
  await expect(rider.page.getByLabel("Message", { exact: true })).toHaveCount(0);
  // Nothing says they were blocked (the page offers them "Report or block" like any chat).
  await expect(rider.page.getByText(/blocked/i)).toHaveCount(0);
  const ridePage = await rider.page.goto(`/rides/${rideId}`);
  expect(ridePage?.status()).toBe(404);

  // Unblock from Settings.
  await driver.page.goto("/dashboard/settings");
  await driver.page.getByRole("button", { name: "Unblock Ravi Pest" }).click();
  await expect(driver.page.getByText("You have not blocked anyone.")).toBeVisible();
  await driver.context.close();
  await rider.context.close();
});

test("download my data, then delete my account", async ({ browser }) => {
  const { context, page } = await freshPage(browser);
  const me = await signUpAndOnboard(page, { fullName: "Meghana Leaving", car: null });
  await page.goto("/dashboard/settings");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-my-data").click()]);
  expect(download.suggestedFilename()).toMatch(/^loopride-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const file = await download.path();
  const json = JSON.parse(await (await import("node:fs/promises")).readFile(file!, "utf8"));
  expect(json.tables.user_profiles[0].fullName).toBe("Meghana Leaving");
  expect(JSON.stringify(json)).not.toMatch(/"hash"/);

  await page.goto("/dashboard/settings");
  await page.getByRole("link", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/dashboard\/delete-account$/);
  await page.getByLabel("Your password").fill("wrong-password");
  await page.getByLabel("Type DELETE to confirm").fill("DELETE");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("That password is not right. Your account was not deleted.")).toBeVisible();
  await page.getByLabel("Your password").fill(me.password);
  await page.getByLabel("Type DELETE to confirm").fill("DELETE");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Your account was deleted")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
  // The old credentials no longer sign in.
  await page.getByLabel("E-mail or mobile number").fill(me.email);
  await page.getByLabel("Password").fill(me.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
  await context.close();
});
