import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide } from "../../db/factories";
import { nextWorkday } from "~/components/find-your-commute";
import { istDate } from "~/domain/time";
import { Browser, db, get, signedInUser } from "../support/worker";

// Issue 38, item 4: after onboarding a rider without a car is led to finding a ride, a driver
// to Create Ride; the sidebar's main button makes the same choice.

const text = async (path: string, cookie: string) =>
  (await (await get(path, { cookie })).text()).replaceAll("<!-- -->", "");
const card = (html: string) => /<section[^>]*id="find-your-commute"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
// The sidebar is in the page twice (desktop, and the phone's slide-over): the same button in both.
const sidebarMain = (html: string) => [
  ...new Set([...html.matchAll(/<a[^>]*class="lr-btn-sm-primary"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1])),
];

describe("a rider's first steps", () => {
  it("a rider without a car sees Find your commute: home and work prefilled, 3 km at 9:00 on the next workday, nearby communities, Save this search", async () => {
    const rider = await signedInUser({
      fullName: "Ritu Rider",
      profile: { residentialArea: "HSR Layout", workplace: "RMZ Ecospace" },
    });
    const founder = await signedInUser({ fullName: "Farid Founder" });
    const near = await createCommunity(
      { db: db() },
      { createdBy: founder.id, name: "Madivala Lake Walkers", location: "Madivala, Bengaluru" },
    );
    const home = await createCommunity(
      { db: db() },
      { createdBy: founder.id, name: "HSR Sector 7 Pool", location: "HSR Layout, Bengaluru" },
    );
    const joined = await createCommunity(
      { db: db() },
      { createdBy: founder.id, name: "HSR Already Mine", location: "HSR Layout, Bengaluru" },
    );
    await addMember({ db: db() }, { communityId: joined.id, userId: rider.id });
    await createCommunity(
      { db: db() },
      { createdBy: founder.id, name: "Yelahanka Far Away", location: "Yelahanka, Bengaluru" },
    );

    const html = await text("/dashboard", rider.cookie);
    const section = card(html);
    expect(section).toContain("Find your commute");
    expect(section).toMatch(/name="from"[^>]*value="HSR Layout"|value="HSR Layout"[^>]*name="from"/);
    expect(section).toMatch(/name="to"[^>]*value="RMZ Ecospace"|value="RMZ Ecospace"[^>]*name="to"/);
    expect(section).toContain(`name="date" value="${nextWorkday(istDate())}"`);
    expect(section).toContain('name="time" value="09:00"');
    expect(section).toContain('name="radius" value="3"');
    // The search can be kept from here, alerting on workdays.
    expect(section).toContain("Save this search");
    expect(section).toContain('name="intent" value="save-search"');
    // Communities near home the rider is not in; not those far away nor one already joined.
    expect(section).toContain(`href="/communities/${near.id}"`);
    expect(section).toContain(`href="/communities/${home.id}"`);
    expect(section).not.toContain(joined.id);
    expect(section).not.toContain("Yelahanka Far Away");
    // The main call is finding a ride, here and in the sidebar.
    expect(html).not.toContain("Create your first ride");
    expect(sidebarMain(html)).toEqual(["Find your commute"]);
    expect(html).toContain('href="/dashboard#find-your-commute"');
  });

  it("a new rider without a home locality gets the search to fill in and a way to browse communities", async () => {
    const rider = await signedInUser({ fullName: "Nisha New" });
    const section = card(await text("/dashboard", rider.cookie));
    expect(section).toContain("Find your commute");
    expect(section).toContain('placeholder="e.g. Koramangala"');
    expect(section).toContain('href="/communities"');
    // Nothing to save before both ends are known.
    expect(section).not.toContain('value="save-search"');
    // The tech parks are offered for "To" without JavaScript.
    expect(section).toContain('<option value="Manyata Tech Park">');
  });

  it("the search finds a ride within 3 km at 9:00 on the next workday and offers Save this search", async () => {
    const rider = await signedInUser({ fullName: "Sana Search" });
    const driver = await signedInUser({
      fullName: "Deepak Driver",
      profile: { vehicleInfo: { has_car: true, car_type: "petrol" } },
    });
    const date = nextWorkday(istDate());
    const ride = await createRide(
      { db: db() },
      { driverId: driver.id, fromLocation: "Koramangala", toLocation: "Manyata Tech Park", date, time: "09:05" },
    );
    const query = new URLSearchParams({
      from: "Koramangala",
      to: "Manyata Tech Park",
      date,
      time: "09:00",
      radius: "3",
      window: "15",
    });
    const html = await text(`/rides?${query}`, rider.cookie);
    expect(html).toContain(`href="/rides/${ride.id}"`);
    expect(html).toContain("Save this search");
  });

  it("a driver keeps Create Ride first: no Find your commute, Create your first ride, Create Ride in the sidebar", async () => {
    const driver = await signedInUser({
      fullName: "Dev Driver",
      profile: { residentialArea: "HSR Layout", vehicleInfo: { has_car: true, car_type: "electric" } },
    });
    const html = await text("/dashboard", driver.cookie);
    expect(card(html)).toBe("");
    expect(html).toContain("Create your first ride");
    expect(sidebarMain(html)).toEqual(["Create Ride"]);
  });

  it("a member without a car who has rides already sees them, not the first steps", async () => {
    const rider = await signedInUser({ fullName: "Old Hand" });
    await createRide({ db: db() }, { driverId: rider.id, date: istDate(), time: "00:00", status: "completed" });
    const html = await text("/dashboard", rider.cookie);
    expect(html).toContain('data-testid="recent-ride"');
    expect(card(html)).toBe("");
  });

  it("onboarding asks for the home locality (a name people use resolves); the new rider's search and nearby communities start from it", async () => {
    const founder = await signedInUser({ fullName: "Farid Founder" });
    const near = await createCommunity(
      { db: db() },
      { createdBy: founder.id, name: "Koramangala 5th Block Pool", location: "Koramangala, Bengaluru" },
    );
    const user = await signedInUser({ fullName: "Kiran Newcomer", onboarded: false });
    const b = new Browser();
    b.cookies.set("lr_session", user.cookie.split("=")[1]);
    await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: "9845012345" });
    const step2 = (await (await b.get("/onboarding?step=2")).text()).replaceAll("<!-- -->", "");
    expect(step2).toContain("Home locality (optional)");
    expect(step2).toMatch(/<input[^>]*name="homeLocality"/);

    // Not a place: the "did you mean" message, and its names to pick without JavaScript.
    const typo = await b.post("/onboarding?step=2", {
      step: "2",
      intent: "next",
      hasCar: "no",
      homeLocality: "Koraman",
    });
    expect(typo.status).toBe(400);
    const typoHtml = (await typo.text()).replaceAll("&quot;", '"').replaceAll("&#x27;", "'");
    expect(typoHtml).toContain(`We don't know "Koraman". Did you mean`);
    expect(typoHtml).toContain('<option value="Koramangala">');

    // A common misspelling is the list's place.
    const ok = await b.post("/onboarding?step=2", {
      step: "2",
      intent: "next",
      hasCar: "no",
      homeLocality: "kormangala",
    });
    expect(ok.headers.get("Location")).toBe("/onboarding?step=3");
    await b.post("/onboarding?step=3", { step: "3", intent: "next", referralCode: "" });
    expect(await (await b.get("/onboarding?step=4")).text()).toContain("Koramangala");
    const done = await b.post("/onboarding?step=4", { step: "4", intent: "complete" });
    expect(done.headers.get("Location")).toBe("/dashboard");
    const stored = await db()
      .$client.prepare("SELECT residential_area FROM user_profiles WHERE user_id = ?")
      .bind(user.id)
      .first<{ residential_area: string | null }>();
    expect(stored?.residential_area).toBe("Koramangala");

    const section = card(await text("/dashboard", b.cookieHeader));
    expect(section).toMatch(/name="from"[^>]*value="Koramangala"|value="Koramangala"[^>]*name="from"/);
    expect(section).toContain(`href="/communities/${near.id}"`);
  });

  it("a locality left blank at onboarding stores nothing and the search starts empty", async () => {
    const user = await signedInUser({ fullName: "Blank Home", onboarded: false });
    const b = new Browser();
    b.cookies.set("lr_session", user.cookie.split("=")[1]);
    await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: "9845012346" });
    const ok = await b.post("/onboarding?step=2", { step: "2", intent: "next", hasCar: "no", homeLocality: "  " });
    expect(ok.headers.get("Location")).toBe("/onboarding?step=3");
    await b.post("/onboarding?step=3", { step: "3", intent: "next", referralCode: "" });
    expect((await b.post("/onboarding?step=4", { step: "4", intent: "complete" })).headers.get("Location")).toBe(
      "/dashboard",
    );
    const section = card(await text("/dashboard", b.cookieHeader));
    expect(section).toContain("Add your locality to your profile to see them.");
  });
});
