import { expect, test, type Page } from "@playwright/test";
import { newPage, signUpAndOnboard, unique, uniqueEmail, uniquePhone, uniqueSlot } from "../support/e2e";
import { arrowToOption, expectFocusVisible, expectTabOrder, tabTo, typeHere } from "../support/keyboard";

// Every form completed with the keyboard alone (issue 9, item 10): Tab / Shift+Tab reach the
// fields in reading order, each with a visible focus indicator; typing, arrows, Space and
// Enter do the rest. No clicks and no fill() once a form is open. Each project (JS on and
// off) signs up its own people.

test.use({ actionTimeout: 20_000 });

const input = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function signUpByKeyboard(page: Page, fullName: string, email: string, password: string) {
  await page.goto("/signup");
  const name = input(page, "Full name");
  const identifier = input(page, "E-mail or mobile number");
  const pass = input(page, "Password");
  const referral = input(page, "Referral code (optional)");
  const submit = page.getByRole("button", { name: "Sign up", exact: true });
  await tabTo(page, name);
  await typeHere(page, name, fullName);
  await expectTabOrder(page, [identifier]);
  await typeHere(page, identifier, email);
  await expectTabOrder(page, [pass]);
  await typeHere(page, pass, password);
  await expectTabOrder(page, [referral, submit]);
  // Shift+Tab walks back the same way.
  await expectTabOrder(page, [referral, pass, identifier], { back: true });
  await expectTabOrder(page, [pass, referral, submit]);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/onboarding/);
}

async function onboardByKeyboard(page: Page, { car }: { car: "Petrol" | "Electric" | null }) {
  // Step 1: Enter in the field submits the step (the default action is Next, not Back).
  const phone = input(page, "Mobile number");
  await tabTo(page, phone);
  await typeHere(page, phone, uniquePhone());
  await page.keyboard.press("Enter");
  await expect(page.getByText("Step 2 of 4")).toBeVisible();

  // Step 2: the radio group is one Tab stop; Space chooses, arrows move between answers.
  const yes = page.getByLabel("Yes, I have a car");
  const no = page.getByLabel("No, I don't");
  const carType = input(page, "Car type (if you have a car)");
  await tabTo(page, yes);
  if (car) {
    await page.keyboard.press("Space");
    await expect(yes).toBeChecked();
    await expectTabOrder(page, [carType]);
    await arrowToOption(page, carType, car);
  } else {
    await page.keyboard.press("ArrowRight");
    await expect(no).toBeFocused();
    await expect(no).toBeChecked();
    await expectTabOrder(page, [carType]);
  }
  // The optional home locality (issue 38) comes after the car, before the buttons.
  await expectTabOrder(page, [
    input(page, "Home locality (optional)"),
    page.getByRole("button", { name: "Back" }),
    page.getByRole("button", { name: "Next" }),
  ]);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Step 3 of 4")).toBeVisible();

  // Step 3: skip the optional code; Enter in the field goes forward.
  const referral = input(page, "Referral code (optional)");
  await tabTo(page, referral);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Step 4 of 4")).toBeVisible();

  await tabTo(page, page.getByRole("button", { name: "Complete Setup" }));
  await page.keyboard.press("Space");
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("sign up, onboarding and sign in with the keyboard alone", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("keys");
  const password = "rava-idli-2026";
  await signUpByKeyboard(page, "Lakshmi Keys", email, password);
  await onboardByKeyboard(page, { car: "Electric" });
  await expect(page.getByRole("heading", { name: "Welcome back, Lakshmi" })).toBeVisible();

  // Sign in, in a fresh browser context (no session).
  const other = await newPage(browser, test.info().project.name);
  await other.goto("/login");
  const identifier = input(other, "E-mail or mobile number");
  const pass = input(other, "Password");
  const submit = other.getByRole("button", { name: "Sign in", exact: true });
  await tabTo(other, identifier);
  await typeHere(other, identifier, email);
  await expectTabOrder(other, [pass]);
  await typeHere(other, pass, password);
  // "Forgot password?" (issue 15) sits between the password and the button.
  await expectTabOrder(other, [other.getByRole("link", { name: "Forgot password?" }), submit]);
  await other.keyboard.press("Enter");
  await expect(other).toHaveURL(/\/dashboard$/);
  await expect(other.getByRole("heading", { name: "Welcome back, Lakshmi" })).toBeVisible();
  await other.context().close();
});

test("create a ride, request a seat, accept it and message the driver with the keyboard alone", async ({
  page: driver,
  browser,
}) => {
  test.setTimeout(180_000);
  await signUpAndOnboard(driver, { fullName: "Karthik Keys", car: "petrol" });
  const rider = await newPage(browser, test.info().project.name);
  await signUpAndOnboard(rider, { fullName: "Nandini Keys", car: null });

  // The driver offers a ride.
  const slot = uniqueSlot();
  await driver.goto("/rides/create");
  const from = input(driver, "Pickup location");
  const to = input(driver, "Drop location");
  const date = input(driver, "Date");
  const time = input(driver, "Time");
  const seats = input(driver, "Available seats");
  const cost = input(driver, "Trip cost (₹, the whole trip)");
  const notes = input(driver, "Notes (optional)");
  const community = input(driver, "Share with a community (optional)");
  const create = driver.getByRole("button", { name: "Create Ride", exact: true }).last();
  await tabTo(driver, from);
  await typeHere(driver, from, "HSR Layout");
  await expectTabOrder(driver, [to]);
  await typeHere(driver, to, "Koramangala");
  // Then the three optional places on the way (issue 36), left empty.
  await expectTabOrder(driver, [input(driver, "Via 1"), input(driver, "Via 2"), input(driver, "Via 3"), date]);
  await driver.keyboard.type(slot.typedDate);
  await expect(date).toHaveValue(slot.date);
  // The date field's segments are one Tab stop each in Chromium: Tab until Time.
  await tabTo(driver, time, { max: 4 });
  await driver.keyboard.type(slot.typedTime);
  await expect(time).toHaveValue(slot.time);
  await tabTo(driver, seats, { max: 4 });
  await arrowToOption(driver, seats, "2");
  await expectTabOrder(driver, [driver.getByRole("button", { name: "Suggest cost" }), cost]);
  await typeHere(driver, cost, "280");
  await expectTabOrder(driver, [notes]);
  await typeHere(driver, notes, "Keyboard-only ride");
  await expectTabOrder(driver, [community, driver.getByRole("link", { name: "Cancel" }), create]);
  await driver.keyboard.press("Enter");
  await expect(driver).toHaveURL(/\/dashboard\/rides$/);
  const card = driver.getByTestId("created-ride").filter({ hasText: slot.label }).first();
  await expect(card).toContainText("HSR Layout");
  const viewRide = card.getByRole("link", { name: "View ride" });
  await tabTo(driver, viewRide, { max: 80 });
  await driver.keyboard.press("Enter");
  await expect(driver).toHaveURL(/\/rides\/[a-z0-9]+$/);
  const rideId = new URL(driver.url()).pathname.split("/").pop()!;

  // The rider requests a seat.
  await rider.goto(`/rides/${rideId}/book`);
  const seatSelect = input(rider, "Seats");
  const message = input(rider, "Message to the driver (optional)");
  await tabTo(rider, seatSelect);
  await arrowToOption(rider, seatSelect, /^1 seat\b/);
  await expectTabOrder(rider, [message]);
  await typeHere(rider, message, "Near the Sector 2 bus stop, please.");
  await expectTabOrder(rider, [rider.getByRole("button", { name: "Request Seats" })]);
  await rider.keyboard.press("Enter");
  await expect(rider).toHaveURL(/\/booking-confirmation\/[a-z0-9]+$/);

  // The driver accepts it.
  await driver.goto(`/rides/${rideId}`);
  await tabTo(driver, driver.getByRole("button", { name: "Accept" }), { max: 80 });
  await driver.keyboard.press("Enter");
  await expect(driver.getByTestId("toast")).toContainText("Request accepted successfully!");

  // The rider messages the driver.
  await rider.goto(`/rides/${rideId}`);
  await tabTo(rider, rider.getByRole("link", { name: "Contact Driver" }), { max: 80 });
  await rider.keyboard.press("Enter");
  await expect(rider).toHaveURL(/\/dashboard\/messages\?(to|c)=/);
  const text = unique("Typed without a mouse");
  const field = input(rider, "Message");
  await tabTo(rider, field, { max: 80 });
  await typeHere(rider, field, text);
  await expectTabOrder(rider, [rider.getByRole("button", { name: "Send" })]);
  await rider.keyboard.press("Enter");
  await expect(rider.getByTestId("chat-messages").getByText(text)).toBeVisible();
  await rider.context().close();
});

test("create a community, flip a setting and subscribe to the newsletter with the keyboard alone", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpAndOnboard(page, { fullName: "Ravi Keys", car: null });

  const name = unique("Keyboard Commuters");
  await page.goto("/communities/new");
  // The required fields' labels end in an asterisk.
  const nameField = page.getByLabel(/^Community Name/);
  const type = input(page, "Community Type");
  const location = page.getByLabel(/^Location/);
  const description = page.getByLabel(/^Description/);
  await tabTo(page, nameField);
  await typeHere(page, nameField, name);
  await expectTabOrder(page, [type]);
  await arrowToOption(page, type, "Workplace");
  await expectTabOrder(page, [location]);
  await typeHere(page, location, "Bagmane Tech Park, Bengaluru");
  await expectTabOrder(page, [description]);
  await typeHere(page, description, "Colleagues who get to work without touching a mouse.");
  await expectTabOrder(page, [page.getByRole("button", { name: "Create Community" })]);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId("member-count")).toHaveText("1 member");

  // A settings switch: Space toggles it, and the choice persists.
  await page.goto("/dashboard/settings");
  const toggle = page.getByTestId("toggle-darkMode");
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await tabTo(page, toggle, { max: 80 });
  await page.keyboard.press("Space");
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  // With JS the switch flips at once (optimistic) while its POST is in flight; reloading
  // before the answer would abort the save.
  await expect(page.getByTestId("toast")).toContainText("Settings saved");
  await page.reload();
  await expect(page.getByTestId("toggle-darkMode")).toHaveAttribute("aria-checked", "true");
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);

  // The newsletter form on the landing page (signed out, in a fresh context).
  const context = await page
    .context()
    .browser()!
    .newContext({ javaScriptEnabled: test.info().project.name === "js" });
  const visitor = await context.newPage();
  await visitor.goto("/");
  const email = input(visitor, "E-mail address");
  await tabTo(visitor, email, { max: 120 });
  await typeHere(visitor, email, uniqueEmail("keys-news"));
  await expectTabOrder(visitor, [visitor.getByRole("button", { name: "Subscribe" })]);
  await expectFocusVisible(visitor);
  await visitor.keyboard.press("Enter");
  await expect(visitor.getByTestId("toast")).toBeVisible();
  await context.close();
});
