/**
 * How the board names the service's queue statuses. The statuses themselves
 * come from the service (the keys of its counts); a status this table does not
 * know is shown by its own word.
 */
const COLUMN: Record<string, string> = { unread: 'To read', read: 'Read' };
const MOVE: Record<string, string> = { unread: 'Back to “To read”', read: 'Mark read' };
const EMPTY: Record<string, string> = { unread: 'Nothing waits to be read.', read: 'No paper is marked read yet.' };

export const columnName = (status: string) => COLUMN[status] ?? status.replace(/_/g, ' ');
export const moveLabel = (status: string) => MOVE[status] ?? `Move to ${columnName(status)}`;
export const emptyColumn = (status: string) => EMPTY[status] ?? `No paper is ${status.replace(/_/g, ' ')}.`;
