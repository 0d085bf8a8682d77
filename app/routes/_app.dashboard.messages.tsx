import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { RoomEvent } from "../../durable-objects/hub-events";
import { Avatar } from "~/components/avatar";
import { FieldErrors, FormErrors, inputClass } from "~/components/forms";
import { useConversationLive } from "~/components/live";
import { formatDateTimeShort, formatTime, istDate, istTime, relativeTime } from "~/domain/time";
import { findConversationForMember, listCommunityContacts, listConversations } from "~/models/conversations.server";
import { ConflictError, ForbiddenError } from "~/models/errors.server";
import {
  findChatWith,
  getChat,
  markConversationRead,
  sendMessage,
  type ChatMessage,
  type Partner,
} from "~/models/messages.server";
import { isId, messageActionSchema, MESSAGES_MAX_PAGE, MESSAGES_PAGE, sendMessageSchema } from "~/schemas/messages";
import { requireUser } from "~/utils/auth.server";
import { orRespond } from "~/utils/errors.server";
import { ownTabs } from "~/models/context.server";
import { publishChange, publishToConversation } from "~/utils/fanout.server";

export const meta: MetaFunction = () => [{ title: "Messages | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const c = url.searchParams.get("c");
  const to = url.searchParams.get("to");
  const limit = Math.min(MESSAGES_MAX_PAGE, Math.max(MESSAGES_PAGE, Number(url.searchParams.get("n")) || MESSAGES_PAGE));

  let chat: Awaited<ReturnType<typeof getChat>> | null = null;
  let newChat: { partner: Partner; allowed: boolean } | null = null;
  if (isId(c)) {
    // Reading a chat never writes: marking it read is a POST (intent=open from the list,
    // intent=mark-read from the open chat), so a GET (a link, a prefetch, a crawler,
    // another site) cannot change anything.
    chat = await orRespond(getChat(context, user.id, c, limit));
  } else if (isId(to)) {
    const found = await orRespond(findChatWith(context, user.id, to));
    if (found.conversationId) throw redirect(`/dashboard/messages?c=${found.conversationId}`);
    newChat = { partner: found.partner, allowed: found.allowed };
  }
  const [conversations, contacts] = await Promise.all([
    listConversations(context, user.id),
    chat ? Promise.resolve([]) : listCommunityContacts(context, user.id),
  ]);
  return { me: user.id, conversations, contacts, chat, newChat, clientId: crypto.randomUUID(), now: Date.now() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const submission = parseWithZod(await request.formData(), { schema: messageActionSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const value = submission.value;
  if (value.intent === "mark-read" || value.intent === "open") {
    // Only the acting user's own incoming messages of their own conversation.
    const conversation = await findConversationForMember(context, user.id, value.c);
    if (!conversation) throw data("Conversation not found", { status: 404 });
    const changed = await markConversationRead(context, user.id, value.c);
    if (changed.messages + changed.notifications > 0) publishChange(context, ownTabs(user.id));
    if (value.intent === "open") return redirect(`/dashboard/messages?c=${value.c}`);
    return data({ ok: true as const, ...changed });
  }
  let sent: Awaited<ReturnType<typeof sendMessage>>;
  try {
    sent = await sendMessage(context, user.id, { to: value.to, content: value.content, clientId: value.clientId });
  } catch (e) {
    if (e instanceof ForbiddenError) return data(submission.reply({ formErrors: [e.message] }), { status: 403 });
    if (e instanceof ConflictError) return data(submission.reply({ fieldErrors: { content: [e.message] } }), { status: 400 });
    throw e;
  }
  if (sent.created) {
    const m = sent.message;
    publishToConversation(context, { type: "message", ...m, clientId: m.clientId });
    publishChange(context, sent.audience);
  }
  return redirect(`/dashboard/messages?c=${sent.conversationId}`);
}

function messageTime(at: number, now: number) {
  return istDate(at) === istDate(now) ? formatTime(istTime(at)) : formatDateTimeShort(at);
}

export default function MessagesPage() {
  const { me, conversations, contacts, chat, newChat, clientId, now } = useLoaderData<typeof loader>();
  const selected = chat?.conversationId ?? null;
  const paneOpen = Boolean(chat || newChat);
  return (
    <div className="mx-auto grid h-[calc(100vh-8rem)] min-h-[28rem] max-w-6xl gap-4 md:grid-cols-[18rem_1fr]">
      <section aria-labelledby="messages-title" className={`flex min-h-0 flex-col rounded-xl border border-slate-200 dark:border-slate-800 ${paneOpen ? "hidden md:flex" : "flex"}`}>
        <h1 id="messages-title" className="border-b border-slate-200 p-4 text-xl font-bold dark:border-slate-800">Messages</h1>
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
                      className={`flex w-full items-center gap-3 border-b text-left border-slate-100 p-3 hover:bg-slate-50 dark:border-slate-900 dark:hover:bg-slate-900 ${
                        c.id === selected ? "bg-emerald-50 dark:bg-emerald-950" : ""
                      }`}
                    >
                      <Avatar name={c.partnerName} url={c.partnerAvatar} size="md" />
                      <span className="block min-w-0 flex-1">
                        <span className="flex items-baseline justify-between gap-2">
                          <span className={`block truncate ${c.unread > 0 ? "font-bold" : "font-medium"}`}>{c.partnerName ?? "Unknown User"}</span>
                          {c.lastMessageAt ? <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">{relativeTime(c.lastMessageAt, now)}</span> : null}
                        </span>
                        <span className="flex items-center justify-between gap-2">
                          <span className="block truncate text-sm text-slate-700 dark:text-slate-300">
                            {c.lastSenderId === me ? "You: " : ""}
                            {c.lastMessagePreview ?? ""}
                          </span>
                          {c.unread > 0 ? (
                            <span data-testid="conversation-unread" className="shrink-0 rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white">
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
          {contacts.length > 0 ? (
            <details className="border-t border-slate-200 p-3 text-sm dark:border-slate-800" open={conversations.length === 0}>
              <summary className="cursor-pointer font-medium text-emerald-800 dark:text-emerald-300">Start a new chat</summary>
              <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Members of your communities:</p>
              <ul className="mt-2 space-y-1" data-testid="contacts">
                {contacts.map((p) => (
                  <li key={p.id}>
                    <Link to={`/dashboard/messages?to=${p.id}`} data-user-id={p.id} className="underline hover:text-emerald-800 dark:hover:text-emerald-300">
                      {p.fullName ?? "Unknown User"}
                    </Link>
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
        </div>
      </section>

      <section aria-label="Chat" className={`min-h-0 flex-col rounded-xl border border-slate-200 dark:border-slate-800 ${paneOpen ? "flex" : "hidden md:flex"}`}>
        {chat ? (
          <ChatPane key={chat.conversationId} chat={chat} me={me} clientId={clientId} now={now} />
        ) : newChat ? (
          <NewChatPane key={newChat.partner.id} partner={newChat.partner} allowed={newChat.allowed} clientId={clientId} />
        ) : (
          <div className="flex flex-1 items-center justify-center p-8 text-center text-slate-700 dark:text-slate-300">
            <p>Select a chat to start messaging</p>
          </div>
        )}
      </section>
    </div>
  );
}

function ChatHeader({ partner }: { partner: Partner }) {
  return (
    <div className="flex items-center gap-3 border-b border-slate-200 p-3 dark:border-slate-800">
      <Link to="/dashboard/messages" className="rounded px-2 py-1 text-sm underline md:hidden">
        Back to chats
      </Link>
      <Avatar name={partner.fullName} url={partner.avatarUrl} size="md" />
      <h2 className="font-semibold" data-testid="chat-partner">{partner.fullName ?? "Unknown User"}</h2>
    </div>
  );
}

type Chat = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["chat"]>;

function ChatPane({ chat, me, clientId, now }: { chat: Chat; me: string; clientId: string; now: number }) {
  const [live, setLive] = useState<ChatMessage[]>([]);
  const markRead = useFetcher<typeof action>({ key: `mark-read-${chat.conversationId}` });
  const connected = useConversationLive(chat.conversationId, (m: RoomEvent) => {
    setLive((prev) => (prev.some((x) => x.id === m.id) ? prev : [...prev, { ...m, readAt: null }]));
    if (m.receiverId === me) {
      markRead.submit({ intent: "mark-read", c: chat.conversationId }, { method: "post", action: `/dashboard/messages?c=${chat.conversationId}` });
    }
  });
  // A chat reached by a GET link (a notification, ?to=, the address bar) may still hold
  // unread messages for me: with JavaScript, post the same mark-read once it is shown.
  const unreadForMe = chat.messages.some((m) => m.receiverId === me && m.readAt === null);
  const markedOnOpen = useRef(false);
  useEffect(() => {
    if (!unreadForMe || markedOnOpen.current) return;
    markedOnOpen.current = true;
    markRead.submit({ intent: "mark-read", c: chat.conversationId }, { method: "post", action: `/dashboard/messages?c=${chat.conversationId}` });
  }, [unreadForMe, chat.conversationId, markRead]);
  // What D1 returned, plus frames that arrived since (until a revalidation includes them).
  const shown = useMemo(() => {
    const known = new Set(chat.messages.map((m) => m.id));
    const last = chat.messages.at(-1)?.createdAt ?? 0;
    const extra = live.filter((m) => !known.has(m.id) && m.createdAt >= last);
    return [...chat.messages, ...extra].sort((a, b) => a.createdAt - b.createdAt);
  }, [chat.messages, live]);

  return (
    <>
      <ChatHeader partner={chat.partner} />
      {unreadForMe ? (
        // Without JavaScript the same POST is one click away (the list's links post it already).
        <noscript>
          <form method="post" action="/dashboard/messages" className="border-b border-slate-200 p-2 text-center dark:border-slate-800">
            <input type="hidden" name="intent" value="open" />
            <input type="hidden" name="c" value={chat.conversationId} />
            <button type="submit" className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300">Mark as read</button>
          </form>
        </noscript>
      ) : null}
      <span hidden data-testid="live-room" data-connected={connected ? "true" : "false"} />
      {/* column-reverse keeps the newest messages in view without any script */}
      <div className="flex min-h-0 flex-1 flex-col-reverse overflow-y-auto p-4" data-testid="chat-scroll">
        <div>
          {chat.hasEarlier ? (
            <p className="mb-3 text-center">
              <Link to={`/dashboard/messages?c=${chat.conversationId}&n=${chat.limit + MESSAGES_PAGE}`} className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300" preventScrollReset>
                Load earlier
              </Link>
            </p>
          ) : null}
          <ol className="space-y-2" data-testid="chat-messages" aria-label={`Messages with ${chat.partner.fullName ?? "Unknown User"}`}>
            {shown.map((m) => (
              <Bubble key={m.id} own={m.senderId === me} content={m.content} time={messageTime(m.createdAt, now)} />
            ))}
          </ol>
        </div>
      </div>
      <Composer to={chat.partner.id} formAction={`/dashboard/messages?c=${chat.conversationId}`} clientId={clientId} />
    </>
  );
}

function Bubble({ own, content, time, pending }: { own: boolean; content: string; time: string; pending?: boolean }) {
  return (
    <li className={`flex ${own ? "justify-end" : "justify-start"}`} data-testid="message" data-own={own ? "true" : "false"}>
      <div
        className={`max-w-[70%] rounded-2xl px-3 py-2 ${
          own ? "rounded-br-sm bg-emerald-700 text-white" : "rounded-bl-sm bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-slate-100"
        } ${pending ? "opacity-70" : ""}`}
      >
        <p className="whitespace-pre-wrap break-words">{content}</p>
        <p className={`mt-1 text-right text-xs ${own ? "text-emerald-50" : "text-slate-600 dark:text-slate-300"}`}>
          <span className="sr-only">{own ? "You, " : ""}</span>
          {time}
        </p>
      </div>
    </li>
  );
}

function NewChatPane({ partner, allowed, clientId }: { partner: Partner; allowed: boolean; clientId: string }) {
  return (
    <>
      <ChatHeader partner={partner} />
      <div className="flex flex-1 items-center justify-center p-8 text-center text-slate-700 dark:text-slate-300">
        {allowed ? <p>Say hello to start the conversation.</p> : <p role="alert">You can only message people who share a community or a ride with you.</p>}
      </div>
      {allowed ? <Composer to={partner.id} formAction={`/dashboard/messages?to=${partner.id}`} clientId={clientId} /> : null}
    </>
  );
}

/** The send form: a plain POST + redirect without JavaScript; with it, a fetcher (no reload) that disables itself while sending. */
function Composer({ to, formAction, clientId }: { to: string; formAction: string; clientId: string }) {
  const fetcher = useFetcher<typeof action>();
  const actionData = useActionData<typeof action>();
  const fetcherResult = fetcher.data && "status" in fetcher.data ? (fetcher.data as SubmissionResult<string[]>) : undefined;
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
      <FormErrors errors={form.errors} />
      <fetcher.Form method="post" action={formAction} {...getFormProps(form)} ref={formRef} className="flex items-start gap-2">
        <input type="hidden" name="intent" value="send" />
        <input type="hidden" name="to" value={to} />
        <input type="hidden" name="clientId" value={clientId} />
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
        <button
          type="submit"
          disabled={sending}
          className="inline-flex items-center justify-center rounded-md bg-emerald-700 px-4 py-2 font-semibold text-white hover:bg-emerald-800 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {sending ? "Sending..." : "Send"}
        </button>
      </fetcher.Form>
    </div>
  );
}
