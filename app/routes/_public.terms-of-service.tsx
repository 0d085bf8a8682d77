import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { CONTACT_EMAIL } from "~/components/brand";
import { LegalPage, LegalSection, POLICY_LAST_UPDATED } from "~/components/legal-page";
import { formatRupees } from "~/domain/money";

export const meta: MetaFunction = () => [
  { title: "Terms of Service | LoopRide" },
  { name: "description", content: "The terms that apply when you use LoopRide to share rides with your community." },
];

export default function TermsOfService() {
  return (
    <LegalPage
      title="Terms of Service"
      lastUpdated={POLICY_LAST_UPDATED}
      intro={
        <p>
          These terms are an agreement between you and LoopRide. By creating an account or using LoopRide you accept
          them, together with our <Link to="/privacy-policy">Privacy Policy</Link> and{" "}
          <Link to="/community-guidelines">Community Guidelines</Link>. If you do not agree, please do not use LoopRide.
        </p>
      }
    >
      <LegalSection title="What LoopRide is">
        <p>
          LoopRide is an online platform that helps members of residential, workplace and interest communities in
          Bengaluru find each other and share trips they are already making. LoopRide only connects community members:
          it does not provide transport, does not employ or engage drivers, does not own or operate vehicles and is not
          a taxi service or aggregator. Each ride is an arrangement between the driver and the passengers who take part
          in it.
        </p>
      </LegalSection>

      <LegalSection title="Eligibility and your account">
        <ul>
          <li>You must be at least 18 years old and able to enter into a binding contract under Indian law.</li>
          <li>
            Give accurate information, including your name and a 10-digit mobile number that is yours, and keep it up to
            date.
          </li>
          <li>
            One person, one account. Keep your password secret; you are responsible for what happens under your account.
          </li>
          <li>Tell us at once at {CONTACT_EMAIL} if you think someone else is using your account.</li>
        </ul>
      </LegalSection>

      <LegalSection title="Communities and moderation">
        <p>
          Members can create communities and ask to join them. A community's creator and its moderators decide who may
          join, and may suspend a member for a period or remove them; a community's admins see a log of every moderator
          action. LoopRide may suspend communities or members that misuse the platform.
        </p>
      </LegalSection>

      <LegalSection title="Drivers">
        <ul>
          <li>
            You must hold a valid driving licence and use a private vehicle with valid registration, insurance and PUC
            certificate, in roadworthy condition, and follow all traffic laws.
          </li>
          <li>
            You may only offer trips you are making anyway, and only ask passengers to share your actual running costs
            (such as fuel and tolls). Using LoopRide to carry passengers for hire or reward, or to run a commercial
            transport business, is prohibited.
          </li>
          <li>Only offer the seats your vehicle legally has, and accept or reject requests promptly.</li>
        </ul>
      </LegalSection>

      <LegalSection title="Passengers">
        <ul>
          <li>Request only the seats you need, be on time at the agreed pickup point, and behave respectfully.</li>
          <li>Pay your share of the trip cost to the driver as shown in the ride's cost breakdown.</li>
        </ul>
      </LegalSection>

      <LegalSection title="Costs and payments">
        <p>
          The driver sets the trip cost. By default it is split equally among everyone in the car when all of them
          belong to the ride's community; otherwise each passenger pays per seat booked. Payments are settled between
          members directly, for example by UPI or cash. LoopRide never collects, holds or transfers ride payments, takes
          no commission on them and is not responsible for payments between members.
        </p>
      </LegalSection>

      <LegalSection title="Cancellations">
        <p>
          Rides and seat requests can be cancelled up to 2 hours before departure. After that, contact the other people
          on the ride directly. Repeated no-shows or late cancellations may lead to removal from a community or
          suspension of your account.
        </p>
      </LegalSection>

      <LegalSection title="Plans">
        <p>
          The Free plan costs {formatRupees(0, { decimals: 0 })}, forever, and is supported by ads. The Pro plan costs{" "}
          {formatRupees(4900, { decimals: 0 })} per month and adds the benefits described on our{" "}
          <Link to="/pricing">Pricing</Link> page. Referral credits have no cash value and cannot be transferred or
          exchanged for money.
        </p>
      </LegalSection>

      <LegalSection title="Acceptable use">
        <ul>
          <li>Do not harass, threaten, discriminate against or defraud other members.</li>
          <li>Do not post false rides, impersonate anyone, send spam or advertise through messages.</li>
          <li>Do not scrape, overload, probe or interfere with the service, or try to access other members' data.</li>
        </ul>
      </LegalSection>

      <LegalSection title="Liability">
        <p>
          Because LoopRide does not provide transport, the driver is responsible for the vehicle and the journey, and
          each member is responsible for their own conduct. LoopRide is provided "as is". To the extent Indian law
          permits, we are not liable for any loss, injury, damage or delay arising from a ride or from dealings between
          members, and our total liability to you for any claim is limited to the amount you paid us for Pro in the
          three months before the claim. Nothing in these terms limits liability that cannot be limited by law.
        </p>
      </LegalSection>

      <LegalSection title="Suspension and termination">
        <p>
          You may stop using LoopRide at any time and ask us to close your account. We may suspend or close accounts
          that break these terms, the Community Guidelines or the law, or that put other members at risk.
        </p>
      </LegalSection>

      <LegalSection title="Governing law and contact">
        <p>
          These terms are governed by the laws of India, and the courts at Bengaluru, Karnataka have exclusive
          jurisdiction. We may update these terms; the date at the top shows the latest version, and continuing to use
          LoopRide after a change means you accept it. Questions? Write to{" "}
          <a href={`mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent("Terms of Service")}`}>{CONTACT_EMAIL}</a>.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
