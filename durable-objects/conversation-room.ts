import type { RoomEvent } from "./hub-events";
import { SocketHub } from "./socket-hub";

/** One per pair of users: new messages for whoever of the two has the chat open. */
export class ConversationRoom extends SocketHub {
  async publish(event: RoomEvent): Promise<number> {
    return this.send(event);
  }
}
