/** The id of the one conversation between two users: both ids, ordered. */
export function conversationIdFor(a: string, b: string): string {
  return a < b ? `${a}${b}` : `${b}${a}`;
}
