import { expect, test } from "@playwright/test";
import { createCommunity, newPage, offerRide, signUpAndOnboard, unique } from "../support/e2e";

// Issue 16, item 4: a moderator removes a member whose future booking on the community's
// ride is then cancelled (the seat released) and who is told so; the admin's moderation
// log records it. Runs with JavaScript on and off.
test("a moderator removes a member: their booking on the community's ride is cancelled and notified, and the log shows it", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const project = test.info().project.name;
  await signUpAndOnboard(page, { fullName: "Lakshmi Rao", car: "petrol" });
  const name = unique("Bellandur Moderated Pool");
  const communityPath = await createCommunity(page, name);
  const rideId = await offerRide(page, { from: "HSR Layout", to: "Bagmane Tech Park", community: name });

  const rider = await newPage(browser, project);
  await signUpAndOnboard(rider, { fullName: "Naveen Kumar", car: null });
  await rider.goto(communityPath);
  await rider.getByRole("button", { name: `Join ${name}` }).click();
  await expect(rider.getByTestId("toast")).toContainText("has been sent");
  await page.goto(`${communityPath}?tab=moderation`);
  await page.getByRole("button", { name: "Approve Naveen Kumar" }).click();
  await expect(page.getByTestId("toast")).toContainText("Request Approved");

  // Naveen books a seat; the driver accepts it.
  await rider.goto(`/rides/${rideId}/book`);
  await rider.getByRole("button", { name: "Request Seats" }).click();
  await expect(rider).toHaveURL(/\/booking-confirmation\/[a-z0-9]+$/);
  const bookingPath = new URL(rider.url()).pathname;
  await page.goto("/dashboard/rides?tab=manage&status=pending");
  await page
    .locator(`[data-testid="request-card"][data-ride-id="${rideId}"]`)
    .filter({ hasText: "Naveen Kumar" })
    .getByRole("button", { name: "Accept" })
    .click();
  await expect(page.getByTestId("toast")).toContainText("Request accepted successfully!");
  await page.goto(`/rides/${rideId}`);
  await expect(page.getByText("1 of 3 booked")).toBeVisible();

  // The admin removes Naveen from the Moderation tab.
  await page.goto(`${communityPath}?tab=moderation`);
  await page
    .getByTestId("managed-member")
    .filter({ hasText: "Naveen Kumar" })
    .getByRole("button", { name: "Remove Naveen Kumar" })
    .click();
  await expect(page.getByTestId("toast")).toContainText("Member Removed");
  await expect(page.getByTestId("managed-member").filter({ hasText: "Naveen Kumar" })).toHaveCount(0);
  await expect(page.getByTestId("rejected-request").filter({ hasText: "Naveen Kumar" })).toBeVisible();
  await page.goto(`/rides/${rideId}`);
  await expect(page.getByText("0 of 3 booked")).toBeVisible();

  // The moderation log (admins) records it.
  await page.goto(`${communityPath}?tab=audit`);
  await expect(page.getByTestId("audit-entry").first()).toContainText("removed Naveen Kumar");

  // Naveen's booking is cancelled, and he was told.
  await rider.goto(bookingPath);
  await expect(rider.getByTestId("booking-subtitle")).not.toHaveText("Your ride is confirmed!");
  await rider.goto("/dashboard?panel=notifications#notifications");
  await expect(rider.locator("#notifications").getByText("Removed from community").first()).toBeVisible();
  await expect(
    rider
      .locator("#notifications")
      .getByText(/Your booking on the ride from HSR Layout to Bagmane Tech Park .* was cancelled/)
      .first(),
  ).toBeVisible();
  await rider.context().close();
});
