import { Form } from "@remix-run/react";
import { FieldErrors } from "./forms";
import { inputClass, panelClass, smallButtonClass, smallPrimaryClass } from "./styles";

// Issue 16, item 1: the community's join rule, shown to everyone on its page, and the
// admins' form to change it (with the invitation link). Plain forms: no JavaScript needed.

export const JOIN_RULE_LABEL: Record<string, string> = {
  open: "Open: anyone can join at once",
  moderated: "Moderated: a moderator approves each request",
  invite: "By invitation: people join with a link from the admins",
  domain: "Work e-mail: members verify an address at the workplace's domain",
};

export function CommunityRulesSummary({ joinMode, emailDomain }: { joinMode: string; emailDomain?: string | null }) {
  return (
    <div data-testid="community-rules">
      <dt className="font-medium text-slate-700 dark:text-slate-300">Joining</dt>
      <dd>
        {joinMode === "domain" && emailDomain
          ? `Work e-mail: members verify an address at @${emailDomain}`
          : (JOIN_RULE_LABEL[joinMode] ?? joinMode)}
      </dd>
    </div>
  );
}

export function CommunityRulesForm({
  joinMode,
  inviteUrl,
  emailDomain,
  domainErrors,
}: {
  joinMode: string;
  inviteUrl: string | null;
  emailDomain?: string | null;
  domainErrors?: string[] | null;
}) {
  return (
    <section aria-labelledby="community-rules-form" className={`${panelClass} space-y-4`}>
      <h2 id="community-rules-form" className="text-lg font-semibold">
        Community Rules
      </h2>
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="join-mode" className="block text-sm font-medium">
            How people join
          </label>
          <select
            id="join-mode"
            name="mode"
            defaultValue={joinMode === "domain" ? "moderated" : joinMode}
            className="mt-1 rounded-md border border-slate-400 px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-900"
          >
            <option value="open">{JOIN_RULE_LABEL.open}</option>
            <option value="moderated">{JOIN_RULE_LABEL.moderated}</option>
            <option value="invite">{JOIN_RULE_LABEL.invite}</option>
          </select>
        </div>
        <button type="submit" name="intent" value="set-join-mode" className={smallPrimaryClass}>
          Save join rule
        </button>
      </Form>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Changing the rule keeps everyone who is already a member, and pending requests wait for a moderator as before.
      </p>
      <WorkDomainForm joinMode={joinMode} emailDomain={emailDomain ?? null} errors={domainErrors} />
      {joinMode === "invite" ? (
        <div className="space-y-2">
          {inviteUrl ? (
            <p className="text-sm">
              Invitation link (share it with people you invite):{" "}
              <code className="break-all rounded bg-slate-100 px-1 dark:bg-slate-800" data-testid="invite-link">
                {inviteUrl}
              </code>
            </p>
          ) : (
            <p className="text-sm">There is no invitation link: nobody can join until you make one.</p>
          )}
          <Form method="post" className="flex flex-wrap gap-2">
            <button type="submit" name="intent" value="invite-reset" className={smallButtonClass}>
              {inviteUrl ? "Replace link" : "Make a link"}
            </button>
            {inviteUrl ? (
              <button type="submit" name="intent" value="invite-revoke" className={smallButtonClass}>
                Revoke link
              </button>
            ) : null}
          </Form>
        </div>
      ) : null}
    </section>
  );
}

/** Issue 16: join by a verified work e-mail at a domain (also how the domain is changed). */
function WorkDomainForm({
  joinMode,
  emailDomain,
  errors,
}: {
  joinMode: string;
  emailDomain: string | null;
  errors?: string[] | null;
}) {
  const on = joinMode === "domain";
  return (
    <Form method="post" className="space-y-2" data-testid="work-domain-form">
      <div className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="email-domain" className="block text-sm font-medium">
            Work e-mail domain
          </label>
          <input
            id="email-domain"
            name="domain"
            required
            placeholder="infosys.com"
            defaultValue={emailDomain ?? ""}
            className={`${inputClass} mt-1 w-56`}
            aria-invalid={errors?.length ? true : undefined}
            aria-describedby="email-domain-hint email-domain-error"
          />
        </div>
        <button type="submit" name="intent" value="set-email-domain" className={smallPrimaryClass}>
          {on ? "Change domain" : "Join by work e-mail"}
        </button>
      </div>
      <FieldErrors id="email-domain-error" errors={errors ?? undefined} />
      <p id="email-domain-hint" className="text-sm text-slate-700 dark:text-slate-300">
        {on
          ? `People join now by verifying an address at @${emailDomain}. `
          : "People join by verifying an address at this domain with a code we e-mail them. "}
        Free-mail providers (gmail.com, yahoo.com, outlook.com…) are not accepted. Members who verified keep their badge
        if you change the domain.
      </p>
    </Form>
  );
}
