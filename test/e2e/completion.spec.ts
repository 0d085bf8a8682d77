import { expect, test, type Browser, type Page } from "@playwright/test";
import { soonSlot } from "../support/flows";
import { signIn } from "./helpers";

const DAY = 86_400_000;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function uniqueSlot() {
  const d = new Date(Date.now() + 5.5 * 3600_000 + (30 + Math.floor(Math.random() * 300)) * DAY);
  const hh = String(6 + Math.floor(Math.random() * 14)).padStart(2, "0");
  const mm = String(Math.floor(Math.random() * 12) * 5).padStart(2, "0");
  return { date: d.toISOString().slice(0, 10), time: `${hh}:${mm}`, label: `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}` };
}

async function as(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: test.info().project.name === "js" });
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

// Rides to complete depart in about 20 minutes: completion opens 30 minutes before departure.
async function offer(page: Page, { community, from, to, cost, soon = false }: { community?: string; from: string; to: string; cost: string; soon?: boolean }) {
  const slot = soon ? soonSlot() : { ...uniqueSlot(), timeLabel: "" };
  await page.goto("/rides/create");
  await page.getByLabel("Pickup location").selectOption(from);
  await page.getByLabel("Drop location").selectOption(to);
  await page.getByLabel("Date").fill(slot.date);
  await page.getByLabel("Time").fill(slot.time);
  await page.getByLabel("Available seats").selectOption("3");
  await page.getByLabel("Trip cost (₹, the whole trip)").fill(cost);
  if (community) await page.getByLabel("Share with a community (optional)").selectOption({ label: community });
  await page.getByRole("button", { name: "Create Ride", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/rides$/);
  // The newest created ride card for this slot links to the ride.
  const cards = page.getByTestId("created-ride").filter({ hasText: slot.label }).filter({ hasText: from }).filter({ hasText: to });
  const card = (slot.timeLabel ? cards.filter({ hasText: slot.timeLabel }) : cards).first();
  await card.getByRole("link", { name: "View ride" }).click();
  await expect(page).toHaveURL(/\/rides\/[a-z0-9]+$/);
  return new URL(page.url()).pathname.split("/").pop()!;
}

async function book(page: Page, rideId: string) {
  await page.goto(`/rides/${rideId}/book`);
  await page.getByLabel("Seats").selectOption("1");
  await page.getByRole("button", { name: "Request Seats" }).click();
  await expect(page).toHaveURL(/\/booking-confirmation\//);
}

async function acceptAll(driver: Page, rideId: string, n: number) {
  for (let i = 0; i < n; i++) {
    await driver.goto(`/rides/${rideId}`);
    await driver.getByRole("button", { name: "Accept" }).first().click();
    await expect(driver.getByTestId("toast")).toContainText("Request accepted successfully!");
  }
}

async function completeAsDriver(driver: Page, rideId: string) {
  await driver.goto(`/rides/${rideId}/completion`);
  await expect(driver.getByTestId("ride-status")).toHaveText("Active");
  await expect(driver.getByText("Costs and payments are calculated automatically")).toBeVisible();
  await driver.getByRole("button", { name: "Complete Ride" }).click();
  await expect(driver.getByText("Ride Completed!")).toBeVisible();
  await expect(driver.getByTestId("ride-status")).toHaveText("Completed", { timeout: 15_000 });
}

// The JS and no-JS runs go in parallel on one database: each gets its own people (demo
// data), so one run's live notifications never land in the other's pages.
const CAST = {
  js: {
    split: { driver: ["priya@demo.loopride.in", "Priya Sharma"], a: ["rahul@demo.loopride.in", "Rahul Verma"], b: ["kavya@demo.loopride.in", "Kavya Nair"], community: "HSR Layout Sector 2 Residents", from: "HSR Layout", to: "Koramangala" },
    standard: { driver: "arjun@demo.loopride.in", rider: "sneha@demo.loopride.in", from: "Whitefield ITPL", to: "Indiranagar" },
  },
  "no-js": {
    split: { driver: ["ananya@demo.loopride.in", "Ananya Iyer"], a: ["irfan@demo.loopride.in", "Mohammed Irfan"], b: ["rahul@demo.loopride.in", "Rahul Verma"], community: "Manyata Tech Park Carpool", from: "Indiranagar", to: "Manyata Tech Park" },
    standard: { driver: "irfan@demo.loopride.in", rider: "vikram@demo.loopride.in", from: "Hebbal", to: "Yelahanka" },
  },
} as const;
const cast = () => CAST[test.info().project.name as "js" | "no-js"];

test("a ride with two riders from the driver's community splits the fuel cost equally; paid, received and rated", async ({ browser }) => {
  test.setTimeout(150_000);
  const c = cast().split;
  const driver = await as(browser, c.driver[0]);
  const rideId = await offer(driver, { community: c.community, from: c.from, to: c.to, cost: "301", soon: true });
  const rahul = await as(browser, c.a[0]);
  const kavya = await as(browser, c.b[0]);
  await book(rahul, rideId);
  await book(kavya, rideId);
  await acceptAll(driver, rideId, 2);

  // A rider sees the wait message before completion.
  await rahul.goto(`/rides/${rideId}/completion`);
  await expect(rahul.getByText("Only the driver can complete this ride.")).toBeVisible();

  await completeAsDriver(driver, rideId);
  await expect(driver.getByTestId("split-badge")).toHaveText("Fuel Cost Split Applied");
  await expect(driver.getByText(c.community).first()).toBeVisible();
  // ₹301 among 3 people: riders pay ₹100.33 each, the driver covers the remaining paise.
  await expect(driver.getByTestId("participants")).toContainText("₹100.33");
  await expect(driver.getByTestId("participants")).toContainText("₹100.34");
  await expect(driver.getByTestId("participants")).toContainText("Equal share");
  await expect(driver.getByTestId("participants").getByText("Same community")).toHaveCount(2);

  // Rahul pays in cash; Priya confirms.
  await rahul.goto(`/rides/${rideId}/completion`);
  await rahul.getByLabel("Paid by").selectOption("cash");
  await rahul.getByRole("button", { name: "Paid", exact: true }).click();
  await expect(rahul.getByTestId("toast")).toContainText("Marked as paid");
  await driver.goto(`/rides/${rideId}/completion`);
  await driver.getByRole("button", { name: `Received from ${c.a[1]}` }).click();
  await expect(driver.getByTestId("toast")).toContainText("Payment received");
  await expect(driver.getByTestId("participant").filter({ hasText: c.a[1] }).getByTestId("payment-status")).toHaveText("Received (cash)");

  // They rate each other; the driver's rating shows on her next ride.
  await rahul.goto(`/rides/${rideId}/completion`);
  await rahul.getByLabel("Stars").first().selectOption("5");
  await rahul.getByRole("button", { name: `Rate ${c.driver[1]}` }).click();
  await expect(rahul.getByTestId("toast")).toContainText("Thanks for your rating!");
  await driver.getByRole("button", { name: `Rate ${c.a[1]}` }).click();
  await expect(driver.getByTestId("toast")).toContainText("Thanks for your rating!");
  const next = await offer(driver, { from: c.to, to: "MG Road", cost: "120" });
  await rahul.goto(`/rides/${next}`);
  await expect(rahul.getByTestId("driver-rating")).toHaveText(/^\d\.\d ★ \(\d+\)$/);

  // Process Payments, then a printable receipt.
  await driver.goto(`/rides/${rideId}/completion`);
  await driver.getByRole("button", { name: /Process Payments|Remind riders again/ }).click();
  await expect(driver).toHaveURL(/\/dashboard\/rides$/);
  await expect(driver.getByTestId("toast")).toContainText("Payments Processed");
  await driver.goto(`/rides/${rideId}/receipt`);
  await expect(driver.getByRole("heading", { name: "Ride receipt" })).toBeVisible();
  await expect(driver.locator("table")).toContainText(c.b[1]);
});

test("a ride with a rider outside the community is priced per seat", async ({ browser }) => {
  test.setTimeout(120_000);
  const c = cast().standard;
  const driver = await as(browser, c.driver);
  const rideId = await offer(driver, { from: c.from, to: c.to, cost: "450", soon: true });
  const sneha = await as(browser, c.rider);
  await book(sneha, rideId);
  await acceptAll(driver, rideId, 1);
  await completeAsDriver(driver, rideId);
  await expect(driver.getByTestId("split-badge")).toHaveText("Cost Per Seat");
  await expect(driver.getByTestId("participants")).toContainText("No charge");
  await expect(driver.getByTestId("participants")).toContainText("Free");
  await expect(driver.getByTestId("participants")).toContainText("₹150.00");
  await expect(driver.getByText("join the same community")).toBeAttached();

  // On the completed ride the rider's seat can no longer be cancelled, and the page says why.
  await sneha.goto(`/rides/${rideId}`);
  await expect(sneha.getByTestId("requests-closed")).toHaveText("This ride has been completed: its requests can no longer be changed.");
  await expect(sneha.getByRole("button", { name: "Cancel my seat" })).toHaveCount(0);
});

test("a ride departing in weeks cannot be completed yet: the button is disabled and says why", async ({ browser }) => {
  const c = cast().standard;
  const driver = await as(browser, c.driver);
  const rideId = await offer(driver, { from: c.to, to: c.from, cost: "200" });
  const sneha = await as(browser, c.rider);
  await book(sneha, rideId);
  await acceptAll(driver, rideId, 1);
  await driver.goto(`/rides/${rideId}/completion`);
  await expect(driver.getByTestId("complete-blocked")).toHaveText("A ride can be completed from 30 minutes before its departure time.");
  await expect(driver.getByRole("button", { name: "Complete Ride" })).toBeDisabled();
});
