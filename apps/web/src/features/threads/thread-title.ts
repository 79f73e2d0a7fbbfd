const TITLE_LENGTH = 80;

/** A thread as people name it: its first question (shortened), or a word for one with no message yet. */
export function threadTitle(thread: { messages: { edges: readonly { node: { content: string } }[] } }, untitled: string): string {
  const first = thread.messages.edges[0]?.node.content.replace(/\s+/g, " ").trim();
  if (!first) return untitled;
  return first.length > TITLE_LENGTH ? `${first.slice(0, TITLE_LENGTH - 1)}…` : first;
}
