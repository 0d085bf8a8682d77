import { expect, test } from "@playwright/test";
import { createCommunity, newPage, offerRide, signUpAndOnboard, unique } from "../support/e2e";

// Issue 16, item 2: an admin sets "Free" pricing and an approved pickup point; a member
// creating a ride for the community is offered the pickup point; after completion the split
// follows the community's mode. Fresh people per run, JavaScript on and off.
test("community rules: free pricing and a pickup point, offered on Create a New Ride and applied at completion", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const project = test.info().project.name;
  await signUpAndOnboard(page, { fullName: "Radha Krishnan", car: "petrol" });
  const name = unique("Whitefield Free Pool");
  const communityPath = await createCommunity(page, name);

  // The admin: anyone may join at once, rides are free, one approved pickup point.
  await page.goto(`${communityPath}?tab=moderation`);
  await page.getByLabel("How people join").selectOption("open");
  await page.getByRole("button", { name: "Save join rule" }).click();
  await expect(page.getByTestId("toast")).toContainText("Join Rule Updated");
  await page.getByLabel("Pricing of rides shared with the community").selectOption("free");
  await page.getByLabel("Approved pickup points (up to 10 places, one per line)").fill("Koramangalla");
  await page.getByRole("button", { name: "Save ride rules" }).click();
  // A typo is refused by its field, with the places it may have meant.
  await expect(page.getByText('We don\'t know "Koramangalla". Did you mean Koramangala')).toBeVisible();
  await page.getByLabel("Approved pickup points (up to 10 places, one per line)").fill("Koramangala");
  await page.getByRole("button", { name: "Save ride rules" }).click();
  await expect(page.getByTestId("toast")).toContainText("Community Rules Updated");
  await expect(page.getByTestId("policy-pricing")).toHaveText("Free ride: riders pay nothing");
  await expect(page.getByTestId("policy-pickup-points")).toHaveText("Koramangala");

  // A member offers a ride for the community: the pickup point is offered above and in the field's choices.
  const driver = await newPage(browser, project);
  await signUpAndOnboard(driver, { fullName: "Suresh Babu", car: "petrol" });
  await driver.goto(communityPath);
  await driver.getByRole("button", { name: `Join ${name}` }).click();
  await expect(driver.getByTestId("toast")).toContainText("Welcome!");
  await expect(driver.getByTestId("policy-pricing")).toHaveText("Free ride: riders pay nothing");
  await driver.goto("/rides/create");
  await expect(driver.getByTestId("pickup-points")).toContainText(`${name}: Koramangala`);
  const listId = await driver.getByLabel("Pickup location").getAttribute("list");
  await expect(driver.locator(`datalist[id="${listId}"] option`).first()).toHaveAttribute("value", "Koramangala");
  const rideId = await offerRide(driver, {
    community: name,
    from: "Koramangala",
    to: "Indiranagar",
    cost: "300",
    soon: true,
  });

  // A member rides; the driver accepts and completes: nobody owes anything.
  const rider = await newPage(browser, project);
  await signUpAndOnboard(rider, { fullName: "Farah Khan", car: null });
  await rider.goto(communityPath);
  await rider.getByRole("button", { name: `Join ${name}` }).click();
  await expect(rider.getByTestId("toast")).toContainText("Welcome!");
  await rider.goto(`/rides/${rideId}/book`);
  await rider.getByRole("button", { name: "Request Seats" }).click();
  await expect(rider).toHaveURL(/\/booking-confirmation\/[a-z0-9]+$/);
  await driver.goto(`/rides/${rideId}`);
  await driver.getByRole("button", { name: "Accept" }).first().click();
  await expect(driver.getByTestId("toast")).toContainText("Request accepted successfully!");
  await driver.goto(`/rides/${rideId}/completion`);
  await driver.getByRole("button", { name: "Complete Ride" }).click();
  await expect(driver.getByTestId("ride-status")).toHaveText("Completed", { timeout: 15_000 });
  await expect(driver.getByTestId("split-badge")).toHaveText("Free ride");
  await expect(driver.getByTestId("participants")).toContainText("Farah Khan");
  await expect(driver.getByTestId("participants")).toContainText("₹0");
  await expect(driver.getByText("Free ride: the community's rule, nobody owes anything.")).toBeVisible();
  await expect(driver.getByRole("button", { name: "Process Payments" })).toHaveCount(0);

  // The rider sees the same, with nothing to pay.
  await rider.goto(`/rides/${rideId}/completion`);
  await expect(rider.getByTestId("split-badge")).toHaveText("Free ride");
  await expect(rider.getByRole("button", { name: "Paid" })).toHaveCount(0);
});
