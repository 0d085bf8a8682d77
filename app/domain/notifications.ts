// Pure helpers for notifications: where an item leads, and how its type is shown.
export type NotificationType = "ride_request" | "ride_update" | "message" | "community";

const str = (v: unknown) => (typeof v === "string" && /^[A-Za-z0-9_-]{1,80}$/.test(v) ? v : null);

/**
 * The page a notification is about: a ride update about a booking opens the booking
 * confirmation, other ride events the ride, a message its chat, a community event the
 * community. Null when the data does not say (the item is then shown without a link).
 */
export function notificationHref(type: string, data: Record<string, unknown> | null | undefined): string | null {
  const d = data ?? {};
  switch (type) {
    case "ride_update": {
      const requestId = str(d.request_id);
      if (requestId) return `/booking-confirmation/${requestId}`;
      const rideId = str(d.ride_id);
      return rideId ? `/rides/${rideId}` : null;
    }
    case "ride_request": {
      const rideId = str(d.ride_id);
      if (rideId) return `/rides/${rideId}`;
      const requestId = str(d.request_id);
      return requestId ? `/booking-confirmation/${requestId}` : null;
    }
    case "message": {
      const c = str(d.conversation_id);
      return c ? `/dashboard/messages?c=${c}` : "/dashboard/messages";
    }
    case "community": {
      const id = str(d.community_id);
      // A report about a member (issue 16) opens the community's reports list.
      if (id && str(d.report_id)) return `/communities/${id}/reports`;
      return id ? `/communities/${id}` : "/communities";
    }
    default:
      return null;
  }
}

export const NOTIFICATION_TYPE_LABEL: Record<string, string> = {
  ride_request: "Ride request",
  ride_update: "Ride update",
  message: "Message",
  community: "Community",
};
