import type { HubEvent } from "./hub-events";
import { SocketHub } from "./socket-hub";

/** One per user: badge counts and notification events for all of that user's tabs. */
export class UserHub extends SocketHub {
  async publish(event: HubEvent): Promise<number> {
    return this.send(event);
  }
}
