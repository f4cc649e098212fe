/**
 * Why a page could not be rendered, noted by the page under its request id so that the edge's
 * error screen can say it (a failed profile load is 'Failed to load user profile…', not a generic
 * failure). Each note is taken once by the edge when the page's response is done.
 */
export interface PageFailures {
  note(requestId: string, message: string): void;
  take(requestId: string): string | undefined;
}

/** Notes older than this many are dropped: a note the edge never takes must not grow the map. */
const MAX_NOTES = 1000;

export function createPageFailures(): PageFailures {
  const notes = new Map<string, string>();
  return {
    note(requestId, message) {
      notes.set(requestId, message);
      if (notes.size > MAX_NOTES) notes.delete(notes.keys().next().value as string);
    },
    take(requestId) {
      const message = notes.get(requestId);
      notes.delete(requestId);
      return message;
    },
  };
}
