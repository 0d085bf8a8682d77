import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Link, useActionData, useFetcher } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { RoomEvent } from "../../durable-objects/hub-events";
import { Avatar } from "~/components/avatar";
import { buttonClass, FieldErrors, FormErrors, inputClass } from "~/components/forms";
import { SafetyLink } from "~/components/safety-link";
import { mutedTextClass, secondaryButtonClass, textLinkClass } from "~/components/styles";
import { useConversationLive } from "~/components/live";
import { formatDateTimeShort, formatTime, formatWeekdayDate, istDate, istTime } from "~/domain/time";
import type { AboutRide, ChatMessage, MessagingAccess, Partner } from "~/models/messages.server";
import { sendMessageSchema } from "~/schemas/messages";

// The open chat of the messages page: header, live message list, and the send form
// (posting to /dashboard/messages, whose action answers with a redirect or a conform reply).

function messageTime(at: number, now: number) {
  return istDate(at) === istDate(now) ? formatTime(istTime(at)) : formatDateTimeShort(at);
}

function ChatHeader({ partner }: { partner: Partner }) {
  return (
    <div className="flex items-center gap-3 border-b border-slate-200 p-3 dark:border-slate-800">
      <Link to="/dashboard/messages" className="rounded px-2 py-1 text-sm underline md:hidden">
        Back to chats
      </Link>
      <Avatar name={partner.fullName} url={partner.avatarUrl} size="md" />
      <h2 className="font-semibold" data-testid="chat-partner">
        {partner.fullName ?? "Unknown User"}
      </h2>
      <span className="ml-auto">
        <SafetyLink personId={partner.id} from="chat" name={partner.fullName} />
      </span>
    </div>
  );
}

export type Chat = {
  conversationId: string;
  partner: Partner;
  messages: ChatMessage[];
  olderCursor: string | null;
  isOlderPage: boolean;
  access: MessagingAccess;
};

/** "About: Koramangala → MG Road, Tue, Nov 24, 8:30 AM": the ride a first message asks about. */
export function aboutText(ride: Omit<AboutRide, "id">) {
  return `About: ${ride.fromLocation} → ${ride.toLocation}, ${formatWeekdayDate(ride.date)}, ${formatTime(ride.time)}`;
}

export function ChatPane({ chat, me, clientId, now }: { chat: Chat; me: string; clientId: string; now: number }) {
  const [live, setLive] = useState<ChatMessage[]>([]);
  const markRead = useFetcher<unknown>({ key: `mark-read-${chat.conversationId}` });
  const connected = useConversationLive(chat.conversationId, (m: RoomEvent) => {
    setLive((prev) => (prev.some((x) => x.id === m.id) ? prev : [...prev, { ...m, readAt: null }]));
    if (m.receiverId === me) {
      markRead.submit(
        { intent: "mark-read", c: chat.conversationId },
        { method: "post", action: `/dashboard/messages?c=${chat.conversationId}` },
      );
    }
  });
  // A chat reached by a GET link (a notification, ?to=, the address bar) may still hold
  // unread messages for me: with JavaScript, post the same mark-read once it is shown.
  const unreadForMe = chat.messages.some((m) => m.receiverId === me && m.readAt === null);
  const markedOnOpen = useRef(false);
  useEffect(() => {
    if (!unreadForMe || markedOnOpen.current) return;
    markedOnOpen.current = true;
    markRead.submit(
      { intent: "mark-read", c: chat.conversationId },
      { method: "post", action: `/dashboard/messages?c=${chat.conversationId}` },
    );
  }, [unreadForMe, chat.conversationId, markRead]);
  // What D1 returned, plus frames that arrived since (until a revalidation includes them);
  // an older page ends before the newest messages, so live ones do not belong on it.
  const shown = useMemo(() => {
    if (chat.isOlderPage) return chat.messages;
    const known = new Set(chat.messages.map((m) => m.id));
    const last = chat.messages.at(-1)?.createdAt ?? 0;
    const extra = live.filter((m) => !known.has(m.id) && m.createdAt >= last);
    return [...chat.messages, ...extra].sort((a, b) => a.createdAt - b.createdAt);
  }, [chat.messages, chat.isOlderPage, live]);

  return (
    <>
      <ChatHeader partner={chat.partner} />
      {unreadForMe ? (
        // Without JavaScript the same POST is one click away (the list's links post it already).
        <noscript>
          <form
            method="post"
            action="/dashboard/messages"
            className="border-b border-slate-200 p-2 text-center dark:border-slate-800"
          >
            <input type="hidden" name="intent" value="open" />
            <input type="hidden" name="c" value={chat.conversationId} />
            <button type="submit" className={textLinkClass}>
              Mark as read
            </button>
          </form>
        </noscript>
      ) : null}
      <span hidden data-testid="live-room" data-connected={connected ? "true" : "false"} />
      {/* column-reverse keeps the newest messages in view without any script */}
      <div className="flex min-h-0 flex-1 flex-col-reverse overflow-y-auto p-4" data-testid="chat-scroll">
        <div>
          {chat.olderCursor ? (
            <p className="mb-3 text-center">
              <Link
                to={`/dashboard/messages?c=${chat.conversationId}&before=${chat.olderCursor}`}
                className={textLinkClass}
                preventScrollReset
                data-testid="older-messages"
              >
                Older messages
              </Link>
            </p>
          ) : null}
          <ol
            className="space-y-2"
            data-testid="chat-messages"
            aria-label={`Messages with ${chat.partner.fullName ?? "Unknown User"}`}
          >
            {shown.map((m) => (
              <Bubble
                key={m.id}
                own={m.senderId === me}
                content={m.content}
                time={messageTime(m.createdAt, now)}
                about={m.about}
              />
            ))}
          </ol>
          {chat.isOlderPage ? (
            <p className="mt-3 text-center">
              <Link
                to={`/dashboard/messages?c=${chat.conversationId}`}
                className={textLinkClass}
                data-testid="newest-messages"
              >
                Newest messages
              </Link>
            </p>
          ) : null}
        </div>
      </div>
      <ComposerOrWhy
        access={chat.access}
        to={chat.partner.id}
        formAction={`/dashboard/messages?c=${chat.conversationId}`}
        clientId={clientId}
      />
    </>
  );
}

function Bubble({
  own,
  content,
  time,
  pending,
  about,
}: {
  own: boolean;
  content: string;
  time: string;
  pending?: boolean;
  about?: ChatMessage["about"];
}) {
  return (
    <li
      className={`flex ${own ? "justify-end" : "justify-start"}`}
      data-testid="message"
      data-own={own ? "true" : "false"}
    >
      <div className={`${own ? "lr-bubble-own" : "lr-bubble"}${pending ? " opacity-70" : ""}`}>
        {about ? (
          <p
            className={`mb-1 text-xs font-semibold ${own ? "text-emerald-50" : "text-slate-700 dark:text-slate-200"}`}
            data-testid="message-about"
          >
            {aboutText(about)}
          </p>
        ) : null}
        <p className="whitespace-pre-wrap break-words">{content}</p>
        <p className={own ? "lr-bubble-time-own" : "lr-bubble-time"}>
          <span className="sr-only">{own ? "You, " : ""}</span>
          {time}
        </p>
      </div>
    </li>
  );
}

export function NoChatSelected() {
  return (
    <div className="flex flex-1 items-center justify-center p-8 text-center text-slate-700 dark:text-slate-300">
      <p>Select a chat to start messaging</p>
    </div>
  );
}

export function NewChatPane({
  partner,
  access,
  clientId,
}: {
  partner: Partner;
  access: MessagingAccess;
  clientId: string;
}) {
  return (
    <>
      <ChatHeader partner={partner} />
      <div className={`flex flex-1 items-center justify-center p-8 text-center ${mutedTextClass}`}>
        {access.allowed ? (
          <p>{access.about ? "Ask the driver about this ride." : "Say hello to start the conversation."}</p>
        ) : null}
      </div>
      <ComposerOrWhy
        access={access}
        to={partner.id}
        formAction={`/dashboard/messages?to=${partner.id}`}
        clientId={clientId}
      />
    </>
  );
}

/**
 * The composer where the messaging rule allows a message (naming the ride a first message asks
 * about); otherwise why not, and the way on: Request a seat, or other rides. Never a dead end.
 */
function ComposerOrWhy({
  access,
  to,
  formAction,
  clientId,
}: {
  access: MessagingAccess;
  to: string;
  formAction: string;
  clientId: string;
}) {
  if (access.allowed) {
    const about = access.about;
    return (
      <Composer
        to={to}
        formAction={about ? `${formAction}&ride=${about.id}` : formAction}
        clientId={clientId}
        about={about}
      />
    );
  }
  return (
    <div
      className="space-y-3 border-t border-slate-200 p-4 text-center dark:border-slate-800"
      data-testid="cannot-message"
    >
      <p role="alert" className={mutedTextClass}>
        {access.reason}
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        {access.bookHref ? (
          <Link to={access.bookHref} className={buttonClass}>
            Request a seat
          </Link>
        ) : null}
        <Link to="/rides" className={secondaryButtonClass}>
          Find rides
        </Link>
      </div>
    </div>
  );
}

/** The send form: a plain POST + redirect without JavaScript; with it, a fetcher (no reload) that disables itself while sending. */
function Composer({
  to,
  formAction,
  clientId,
  about,
}: {
  to: string;
  formAction: string;
  clientId: string;
  about: AboutRide | null;
}) {
  const fetcher = useFetcher<object>();
  const actionData = useActionData<object>();
  const fetcherResult =
    fetcher.data && "status" in fetcher.data ? (fetcher.data as SubmissionResult<string[]>) : undefined;
  const pageResult = actionData && "status" in actionData ? (actionData as SubmissionResult<string[]>) : undefined;
  const [form, fields] = useForm({
    id: `send-${to}`,
    lastResult: fetcherResult ?? pageResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: sendMessageSchema }),
  });
  const sending = fetcher.state !== "idle";
  const formRef = useRef<HTMLFormElement>(null);
  const wasSending = useRef(false);
  useEffect(() => {
    // A send that ended without errors (the action redirected): empty the input for the next one.
    if (wasSending.current && fetcher.state === "idle" && !fetcherResult) formRef.current?.reset();
    wasSending.current = fetcher.state !== "idle";
  }, [fetcher.state, fetcherResult]);
  const pendingText = sending ? String(fetcher.formData?.get("content") ?? "").trim() : "";
  return (
    <div className="border-t border-slate-200 p-3 dark:border-slate-800">
      {pendingText ? (
        <ol aria-label="Sending" className="mb-2">
          <Bubble own content={pendingText} time="Sending..." pending />
        </ol>
      ) : null}
      {about ? (
        <p className={`mb-2 text-sm font-medium ${mutedTextClass}`} data-testid="composer-about">
          {aboutText(about)}
        </p>
      ) : null}
      <FormErrors errors={form.errors} />
      <fetcher.Form
        method="post"
        action={formAction}
        {...getFormProps(form)}
        ref={formRef}
        className="flex items-start gap-2"
      >
        <input type="hidden" name="intent" value="send" />
        <input type="hidden" name="to" value={to} />
        <input type="hidden" name="clientId" value={clientId} />
        {about ? <input type="hidden" name="rideId" value={about.id} /> : null}
        <div className="flex-1">
          <label htmlFor={fields.content.id} className="sr-only">
            Message
          </label>
          <input
            {...getInputProps(fields.content, { type: "text", ariaAttributes: true })}
            key={fields.content.key}
            placeholder="Type a message..."
            autoComplete="off"
            disabled={sending}
            className={inputClass}
          />
          <FieldErrors id={fields.content.errorId} errors={fields.content.errors} />
        </div>
        <button type="submit" disabled={sending} className={buttonClass}>
          {sending ? "Sending..." : "Send"}
        </button>
      </fetcher.Form>
    </div>
  );
}
