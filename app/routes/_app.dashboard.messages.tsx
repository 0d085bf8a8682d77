import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { handleMessageIntent } from "~/intents/messages.server";
import { useLoaderData } from "@remix-run/react";
import { ChatPane, NewChatPane, NoChatSelected } from "~/components/chat";
import { ConversationList } from "~/components/conversation-list";
import {
  communityContactsQuery,
  conversationListQueries,
  conversationsFrom,
  listConversations,
  type CommunityContact,
} from "~/models/conversations.server";
import { findChatWith, getChat, type MessagingAccess, type Partner } from "~/models/messages.server";
import { isId } from "~/schemas/messages";
import { parseCursor } from "~/domain/cursor";
import { requireUser } from "~/utils/auth.server";
import { orRespond } from "~/utils/errors.server";

export const meta: MetaFunction = () => [{ title: "Messages | LoopRide" }];

/** A chat not yet started: the person and whether the user may write to them. */
type NewChat = { partner: Partner; access: MessagingAccess };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const c = url.searchParams.get("c");
  const to = url.searchParams.get("to");
  const ride = url.searchParams.get("ride");
  const rideId = isId(ride) ? ride : null;

  const chats = parseCursor(url.searchParams.get("chats"));
  const page = { me: user.id, clientId: crypto.randomUUID(), now: Date.now() };
  if (isId(c)) {
    // Reading a chat never writes: marking it read is a POST (intent=open from the list,
    // intent=mark-read from the open chat), so a GET (a link, a prefetch, a crawler,
    // another site) cannot change anything. The list comes in the chat's own batch.
    const { also, ...chat } = await orRespond(
      getChat(
        context,
        user.id,
        c,
        parseCursor(url.searchParams.get("before")),
        rideId,
        Date.now(),
        // The list's cursor is among the values its statements bind (built once, ADR 0069).
        {
          key: `list:${chats ? "more" : "first"}`,
          values: { listAt: chats?.at ?? 0, listId: chats?.id ?? "" },
          make: (v) =>
            conversationListQueries(context.db, v.userId, chats && { at: Number(v.listAt), id: String(v.listId) }),
        },
      ),
    );
    return { ...page, ...conversationsFrom(also), contacts: [] as CommunityContact[], chat, newChat: null };
  }
  if (isId(to)) {
    const lists = conversationListQueries(context.db, user.id, chats);
    // The person and the list in one batch; the list is read in vain only when a chat exists.
    const { also, ...found } = await orRespond(
      findChatWith(context, user.id, to, rideId, Date.now(), [...lists, communityContactsQuery(context.db, user.id)]),
    );
    if (found.conversationId)
      throw redirect(`/dashboard/messages?c=${found.conversationId}${rideId ? `&ride=${rideId}` : ""}`);
    const newChat: NewChat = { partner: found.partner, access: found.access };
    return {
      ...page,
      ...conversationsFrom(also),
      contacts: also[lists.length] as CommunityContact[],
      chat: null,
      newChat,
    };
  }
  const { also, ...list } = await listConversations(context, user.id, chats, [
    communityContactsQuery(context.db, user.id),
  ]);
  return { ...page, ...list, contacts: also[0] as CommunityContact[], chat: null, newChat: null as NewChat | null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleMessageIntent(request, context, user.id, await request.formData());
}

export default function MessagesPage() {
  const { me, conversations, moreCursor, contacts, chat, newChat, clientId, now } = useLoaderData<typeof loader>();
  const selected = chat?.conversationId ?? null;
  const paneOpen = Boolean(chat || newChat);
  return (
    <div className="mx-auto grid h-[calc(100vh-8rem)] min-h-[28rem] max-w-6xl gap-4 md:grid-cols-[18rem_1fr]">
      <ConversationList
        conversations={conversations}
        moreHref={moreCursor ? `/dashboard/messages?chats=${moreCursor}${selected ? `&c=${selected}` : ""}` : null}
        contacts={contacts}
        selected={selected}
        me={me}
        now={now}
        hidden={paneOpen}
      />

      <section
        aria-label="Chat"
        className={`min-h-0 flex-col rounded-xl border border-slate-200 dark:border-slate-800 ${paneOpen ? "flex" : "hidden md:flex"}`}
      >
        {chat ? (
          <ChatPane key={chat.conversationId} chat={chat} me={me} clientId={clientId} now={now} />
        ) : newChat ? (
          <NewChatPane key={newChat.partner.id} partner={newChat.partner} access={newChat.access} clientId={clientId} />
        ) : (
          <NoChatSelected />
        )}
      </section>
    </div>
  );
}
