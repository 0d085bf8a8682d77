import { expect, test, type Page } from "@playwright/test";
import { newPage, offerRide, requestSeat, signUpAndOnboard } from "../support/e2e";

// Issue 37, items 1-4, JS on and off: the driver starts the trip, a wrong pickup code is
// refused, the right one records the pickup, the rider and a share-link viewer without an
// account see each status, the driver ends the trip, and the link is dead once revoked.
// Fresh people per run (the JS and no-JS runs share one database).

async function person(page: Page, fullName: string) {
  await signUpAndOnboard(page, { fullName });
  return page;
}

const statusOf = (page: Page) => page.getByTestId("trip-status");

test("the trip on the day: status, pickup code, share link and 112", async ({ browser }, info) => {
  test.setTimeout(180_000);
  const driver = await person(await newPage(browser, info.project.name), "Meera Krishnan");
  const rideId = await offerRide(driver, { from: "HSR Layout", to: "Koramangala", soon: true });
  const rider = await person(await newPage(browser, info.project.name), "Naveen Rao");
  await requestSeat(rider, rideId);
  await driver.goto(`/rides/${rideId}`);
  await driver.getByRole("button", { name: "Accept" }).first().click();
  await expect(driver.getByTestId("toast")).toContainText("Request accepted successfully!");

  // The rider's day: the code, 112, and a link for the family.
  await rider.goto(`/rides/${rideId}`);
  await expect(statusOf(rider)).toContainText("Not started yet");
  await expect(rider.getByTestId("call-112")).toHaveAttribute("href", "tel:112");
  const code = (await rider.getByTestId("pickup-code").textContent())!.trim();
  expect(code).toMatch(/^\d{4}$/);
  await rider.getByRole("button", { name: "Create a trip link" }).click();
  await expect(rider.getByTestId("toast")).toContainText("Trip link ready");
  const link = await rider.getByRole("textbox", { name: "Your trip link" }).inputValue();
  expect(link).toMatch(/\/trip\/[0-9a-f]{64}$/);
  await expect(rider.getByRole("link", { name: "Send by WhatsApp" })).toHaveAttribute("href", /^https:\/\/wa\.me\//);
  await expect(rider.getByRole("link", { name: "Send by e-mail" })).toHaveAttribute("href", /^mailto:/);

  // Someone without an account follows the link.
  const family = await newPage(browser, info.project.name);
  await family.goto(link);
  await expect(family.getByTestId("shared-trip-status")).toHaveText("Not started yet");
  await expect(family.getByTestId("shared-driver-name")).toHaveText("Meera");
  await expect(family.getByText("Krishnan")).toHaveCount(0);
  await expect(family.getByText("Naveen")).toHaveCount(0);

  // The driver starts the trip; a wrong code is refused and changes nothing.
  await driver.goto(`/rides/${rideId}`);
  await driver.getByRole("button", { name: "Start trip" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Trip started");
  await expect(statusOf(driver)).toContainText("On the way");
  const wrong = code === "0000" ? "1111" : "0000";
  await driver.getByLabel("Pickup code for Naveen Rao").fill(wrong);
  await driver.getByRole("button", { name: "Picked up" }).click();
  await expect(driver.getByTestId("toast")).toContainText("That pickup code is not right");
  await expect(driver.getByTestId("trip-rider")).toContainText("Waiting for pickup");
  await driver.getByLabel("Pickup code for Naveen Rao").fill(code);
  await driver.getByRole("button", { name: "Picked up" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Rider picked up");
  await expect(driver.getByTestId("trip-rider")).toContainText("Picked up");

  // The rider and the family see it (live with JavaScript, on reload without).
  if (info.project.name !== "js") await rider.reload();
  await expect(statusOf(rider)).toContainText("On the way");
  await expect(rider.getByText("You: Picked up")).toBeVisible();
  await family.reload();
  await expect(family.getByTestId("shared-trip-status")).toHaveText("On the way");
  await expect(family.getByText("Picked up", { exact: true })).toBeVisible();

  // Dropped, then End trip leads to the completion page.
  await driver.getByRole("button", { name: "Dropped: Naveen Rao" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Rider dropped");
  await driver.getByRole("button", { name: "End trip" }).click();
  await expect(driver).toHaveURL(new RegExp(`/rides/${rideId}/completion$`));
  await expect(driver.getByTestId("toast")).toContainText("Trip ended");
  await family.reload();
  await expect(family.getByTestId("shared-trip-status")).toHaveText("Trip ended");
  await rider.goto(`/rides/${rideId}`);
  await expect(statusOf(rider)).toContainText("Trip ended");

  // Revoked, the link is dead.
  await rider.getByRole("button", { name: "Revoke" }).click();
  await expect(rider.getByTestId("toast")).toContainText("Link revoked");
  const dead = await family.goto(link);
  expect(dead?.status()).toBe(404);
});

test("pickup code tries are limited per booking", async ({ browser }, info) => {
  test.setTimeout(150_000);
  const driver = await person(await newPage(browser, info.project.name), "Lakshmi Rao");
  const rideId = await offerRide(driver, { from: "Indiranagar", to: "Whitefield ITPL", soon: true });
  const rider = await person(await newPage(browser, info.project.name), "Farhan Ali");
  await requestSeat(rider, rideId);
  await driver.goto(`/rides/${rideId}`);
  await driver.getByRole("button", { name: "Accept" }).first().click();
  await expect(driver.getByTestId("toast")).toContainText("Request accepted successfully!");
  await rider.goto(`/rides/${rideId}`);
  const code = (await rider.getByTestId("pickup-code").textContent())!.trim();
  await driver.goto(`/rides/${rideId}`);
  await driver.getByRole("button", { name: "Start trip" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Trip started");
  const wrong = code === "0000" ? "1111" : "0000";
  for (let i = 0; i < 5; i++) {
    await driver.getByLabel("Pickup code for Farhan Ali").fill(wrong);
    // Each try is answered before the next: the toast of the try before says "not right" too, so
    // it alone could let a click go while the last post is still in flight.
    const answered = driver.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/trip"));
    await driver.getByRole("button", { name: "Picked up" }).click();
    await answered;
    await expect(driver.getByTestId("toast")).toContainText(i < 4 ? "not right" : "Too many wrong pickup codes");
  }
  await driver.getByLabel("Pickup code for Farhan Ali").fill(code);
  await driver.getByRole("button", { name: "Picked up" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Too many wrong pickup codes");
  await expect(driver.getByTestId("trip-rider")).toContainText("Waiting for pickup");
});
