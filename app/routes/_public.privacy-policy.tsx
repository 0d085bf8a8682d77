import type { MetaFunction } from "@remix-run/cloudflare";
import { LegalPage, POLICY_LAST_UPDATED } from "~/components/legal-page";
import { PrivacyPolicyText } from "~/components/privacy-policy-text";

export const meta: MetaFunction = () => [
  { title: "Privacy Policy | LoopRide" },
  {
    name: "description",
    content: "What personal data LoopRide collects, why, who can see it and how long we keep it.",
  },
];

export default function PrivacyPolicy() {
  return (
    <LegalPage
      title="Privacy Policy"
      lastUpdated={POLICY_LAST_UPDATED}
      intro={
        <p>
          This policy explains what personal data LoopRide collects when you use our website, why we collect it, who can
          see it and how long we keep it. We process personal data in line with India's Digital Personal Data Protection
          Act, 2023 and the Information Technology Act, 2000 and the rules made under them.
        </p>
      }
    >
      <PrivacyPolicyText />
    </LegalPage>
  );
}
