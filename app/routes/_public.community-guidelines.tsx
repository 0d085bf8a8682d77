import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { CONTACT_EMAIL } from "~/components/brand";
import { LegalPage, LegalSection } from "~/components/legal-page";

export const meta: MetaFunction = () => [
  { title: "Community Guidelines | LoopRide" },
  { name: "description", content: "How LoopRide members keep carpooling punctual, fair, respectful and safe." },
];

export default function CommunityGuidelines() {
  return (
    <LegalPage
      title="Community Guidelines"
      intro={
        <p>
          LoopRide works because neighbours and colleagues trust each other with their commute. These guidelines apply
          to every member, every community and every ride. Community moderators decide who may join their community, and
          may suspend or remove a member who does not follow these guidelines (a removed member's bookings on the
          community's upcoming rides are cancelled, and they and the drivers are told); tell them, or us, when someone
          does not follow these guidelines.
        </p>
      }
    >
      <LegalSection title="Be on time">
        <ul>
          <li>
            Drivers: leave at the departure time you published, and wait a few minutes at the agreed pickup point.
          </li>
          <li>Passengers: be at the pickup point a few minutes early. A car full of people should not wait for one.</li>
          <li>Running late? Send a message in the ride's chat as soon as you know.</li>
        </ul>
      </LegalSection>

      <LegalSection title="Cancel early, not at the last minute">
        <ul>
          <li>
            Rides and seat requests can be cancelled up to <strong>2 hours before departure</strong>. If your plans
            change, cancel as early as you can so others can find another ride or passenger.
          </li>
          <li>
            Within 2 hours of departure, message the people in the ride directly instead of simply not turning up.
          </li>
          <li>Repeated no-shows and late cancellations make other members less willing to ride with you.</li>
        </ul>
      </LegalSection>

      <LegalSection title="Respect everyone">
        <ul>
          <li>
            Be courteous in the car and in messages. No harassment, hate speech, discrimination or unwanted advances.
          </li>
          <li>Agree on the basics before you start: music, AC, calls, food and stops along the way.</li>
          <li>No smoking, alcohol or drugs in the car.</li>
          <li>Keep messages about the ride. Do not use LoopRide to advertise, sell or spam other members.</li>
        </ul>
      </LegalSection>

      <LegalSection title="Safety first">
        <ul>
          <li>
            Drivers must hold a valid driving licence and drive a vehicle with valid registration, insurance and a PUC
            certificate, in roadworthy condition.
          </li>
          <li>
            Follow traffic rules, never drive after drinking, and do not use your phone while driving. Everyone wears a
            seat belt.
          </li>
          <li>Offer only the seats your car really has: no overloading.</li>
          <li>
            Passengers: check the driver's name and the car before getting in, and share your trip with a friend or
            family member.
          </li>
          <li>
            Never share your password, and keep personal details such as your home address in private messages only.
          </li>
          <li>In an emergency, call 112.</li>
        </ul>
      </LegalSection>

      <LegalSection title="On the day of the ride: what LoopRide does and does not promise">
        <ul>
          <li>
            On the ride's day the driver marks the trip started, each rider picked up (with the rider's 4-digit pickup
            code) and dropped, and the trip ended. Riders see each step on the ride's page.
          </li>
          <li>
            Anyone on the ride can make a trip link for family or a colleague. It shows the route, the driver's first
            name, photo and car, and the trip's status; nothing else about anyone. It stops working an hour after the
            trip ends, or when you revoke it.
          </li>
          <li>
            "Alert my emergency contact" e-mails that link to the address in your profile. It is an e-mail, not a call:
            it may arrive late, and nobody at LoopRide reads it or acts on it.
          </li>
          <li>
            LoopRide is not an emergency service. Nobody watches trips, we do not track where the car is, and we cannot
            send help. In an emergency, call 112 (the ride's page shows it as a button on the day).
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="Carpooling, not a taxi service">
        <ul>
          <li>
            LoopRide is for sharing a trip you are making anyway. Using it to run a commercial taxi, cab or bike-taxi
            service, or to carry passengers for profit, is not allowed.
          </li>
          <li>
            Do not publish rides you do not intend to make yourself, and do not drive for someone else's business
            through LoopRide.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="Split costs fairly">
        <ul>
          <li>
            Set a trip cost that covers your real running costs, such as fuel and tolls, and nothing more. LoopRide
            shows everyone the cost breakdown after the ride.
          </li>
          <li>
            By default the cost is split equally when everyone is in the same community; otherwise each passenger pays
            per seat booked.
          </li>
          <li>
            Payments are settled between members, by UPI or cash. Pay your share promptly and do not ask for more than
            the breakdown shows. LoopRide never holds money for rides.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="Reporting problems">
        <p>
          If a member breaks these guidelines or makes you feel unsafe, tell your community's moderators, or write to us
          at <a href={`mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent("Report a problem")}`}>{CONTACT_EMAIL}</a>{" "}
          with the ride, the date and what happened. We treat every report confidentially. For anything urgent, call 112
          first.
        </p>
        <p>
          See also our <Link to="/terms-of-service">Terms of Service</Link> and <Link to="/support">Support</Link> page.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
