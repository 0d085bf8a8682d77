import { Form, Link } from "@remix-run/react";
import { Avatar } from "~/components/avatar";
import { relativeTime } from "~/domain/time";

type Conversation = {
  id: string;
  partnerName: string | null;
  partnerAvatar: string | null;
  lastMessageAt: number | null;
  lastSenderId: string | null;
  lastMessagePreview: string | null;
  unread: number;
};
type Contact = { id: string; fullName: string | null };

/** The messages page's chat list and "Start a new chat" contacts (hidden on small screens while a chat is open). */
export function ConversationList({
  conversations,
  moreHref,
  contacts,
  selected,
  me,
  now,
  hidden,
}: {
  conversations: Conversation[];
  /** The next page of the list (older conversations), when there is one. */
  moreHref: string | null;
  contacts: Contact[];
  selected: string | null;
  me: string;
  now: number;
  hidden: boolean;
}) {
  return (
    <section
      aria-labelledby="messages-title"
      className={`flex min-h-0 flex-col rounded-xl border border-slate-200 dark:border-slate-800 ${hidden ? "hidden md:flex" : "flex"}`}
    >
      <h1 id="messages-title" className="border-b border-slate-200 p-4 text-xl font-bold dark:border-slate-800">
        Messages
      </h1>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {conversations.length === 0 ? (
          <p className="p-4 text-slate-700 dark:text-slate-300">No messages yet</p>
        ) : (
          <ul data-testid="conversation-list">
            {conversations.map((c) => (
              <li key={c.id}>
                {/* Opening a chat marks it read, so it is a POST (intent=open) that redirects to the chat. */}
                <Form method="post" action="/dashboard/messages">
                  <input type="hidden" name="intent" value="open" />
                  <input type="hidden" name="c" value={c.id} />
                  <button
                    type="submit"
                    aria-current={c.id === selected ? "page" : undefined}
                    data-testid="conversation"
                    data-partner={c.partnerName ?? ""}
                    className={c.id === selected ? "lr-chat-item lr-chat-item-on" : "lr-chat-item"}
                  >
                    <Avatar name={c.partnerName} url={c.partnerAvatar} size="md" />
                    <span className="block min-w-0 flex-1">
                      <span className="flex items-baseline justify-between gap-2">
                        <span className={`block truncate ${c.unread > 0 ? "font-bold" : "font-medium"}`}>
                          {c.partnerName ?? "Unknown User"}
                        </span>
                        {c.lastMessageAt ? (
                          <span className="lr-chat-when">{relativeTime(c.lastMessageAt, now)}</span>
                        ) : null}
                      </span>
                      <span className="flex items-center justify-between gap-2">
                        <span className="lr-chat-preview">
                          {c.lastSenderId === me ? "You: " : ""}
                          {c.lastMessagePreview ?? ""}
                        </span>
                        {c.unread > 0 ? (
                          <span data-testid="conversation-unread" className="lr-chat-unread">
                            {c.unread}
                            <span className="sr-only"> unread</span>
                          </span>
                        ) : null}
                      </span>
                    </span>
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        {moreHref ? (
          <p className="p-3 text-center text-sm">
            <Link
              to={moreHref}
              className="underline hover:text-emerald-800 dark:hover:text-emerald-300"
              data-testid="more-conversations"
            >
              More conversations
            </Link>
          </p>
        ) : null}
        {contacts.length > 0 ? (
          <details
            className="border-t border-slate-200 p-3 text-sm dark:border-slate-800"
            open={conversations.length === 0}
          >
            <summary className="cursor-pointer font-medium text-emerald-800 dark:text-emerald-300">
              Start a new chat
            </summary>
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Members of your communities:</p>
            <ul className="mt-2 space-y-1" data-testid="contacts">
              {contacts.map((p) => (
                <li key={p.id}>
                  <Link
                    to={`/dashboard/messages?to=${p.id}`}
                    data-user-id={p.id}
                    className="underline hover:text-emerald-800 dark:hover:text-emerald-300"
                  >
                    {p.fullName ?? "Unknown User"}
                  </Link>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>
    </section>
  );
}
