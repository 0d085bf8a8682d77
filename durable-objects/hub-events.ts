// Frames the Durable Objects send to browsers. Type-only module.
export type HubEvent =
  | { type: "badges"; pendingRequests: number; unreadNotifications: number; unreadMessages: number }
  | { type: "notification"; id: string; title: string; message: string; notificationType: string; createdAt: number };

export type RoomEvent = {
  type: "message";
  id: string;
  clientId: string | null;
  conversationId: string;
  senderId: string;
  receiverId: string;
  content: string;
  createdAt: number;
};
