import { expect, test } from "@playwright/test";
import { newPage, offerRideAt, signUpAndOnboard, unique } from "../support/e2e";

// Issue 20: a fresh rider who shares no community and no request with a driver asks about
// the driver's ride from Discover; the driver sees the question with the ride named and
// answers. Fresh users on both sides, so the journey is the same with JS on and off.

test("a fresh rider presses Contact on a Discover ride, asks a question; the driver sees it with the ride named and replies", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const project = test.info().project.name;
  const driverName = unique("Deepa Driver");
  const driver = await newPage(browser, project);
  await signUpAndOnboard(driver, { fullName: driverName, car: "petrol" });
  const { id: rideId, date } = await offerRideAt(driver, { from: "Koramangala", to: "MG Road" });

  const rider = await newPage(browser, project);
  const riderName = unique("Ravi Rider");
  await signUpAndOnboard(rider, { fullName: riderName, car: null });
  await rider.goto(`/rides?date=${date}`);
  const card = rider.getByTestId("ride-card").filter({ hasText: driverName });
  await card.getByRole("link", { name: "Contact" }).click();
  await expect(rider).toHaveURL(new RegExp(`/dashboard/messages\\?to=[a-z0-9]+&ride=${rideId}`));
  await expect(rider.getByTestId("chat-partner")).toHaveText(driverName);
  await expect(rider.getByTestId("composer-about")).toContainText("About: Koramangala → MG Road");

  const question = unique("Can you pick me up at the main gate?");
  await rider.getByLabel("Message", { exact: true }).fill(question);
  await rider.getByRole("button", { name: "Send" }).click();
  await expect(rider).toHaveURL(/\/dashboard\/messages\?c=/);
  const asked = rider.getByTestId("message").filter({ hasText: question });
  await expect(asked).toHaveAttribute("data-own", "true");
  await expect(asked.getByTestId("message-about")).toContainText("About: Koramangala → MG Road");

  // The driver finds the question in their conversations, with the ride named, and answers.
  await driver.goto("/dashboard/messages");
  await driver.getByTestId("conversation").filter({ hasText: riderName }).click();
  await expect(driver).toHaveURL(/\/dashboard\/messages\?c=/);
  const received = driver.getByTestId("message").filter({ hasText: question });
  await expect(received).toHaveAttribute("data-own", "false");
  await expect(received.getByTestId("message-about")).toContainText("About: Koramangala → MG Road");
  const answer = unique("Yes, main gate at 8:25");
  await driver.getByLabel("Message", { exact: true }).fill(answer);
  await driver.getByRole("button", { name: "Send" }).click();
  await expect(driver.getByTestId("chat-messages").getByText(answer)).toBeVisible();

  // The rider sees the answer (live with JS; on the next load without).
  if (project !== "js") await rider.reload();
  await expect(rider.getByTestId("message").filter({ hasText: answer })).toHaveAttribute("data-own", "false");
});
