/**
 * Reads for many rows at once answer in one query each (the routine list reads
 * 200 routines per request): the ids travel as one JSON array, bound to one
 * parameter, so the statement is the same for any number of them.
 *
 * @example db.prepare(`SELECT * FROM scheduler_jobs WHERE routine_id IN (${IN_ID_LIST})`).all(idList([1, 2, 3]))
 */
export const IN_ID_LIST = 'SELECT value FROM json_each(?)';

export const idList = (ids: readonly number[]): string => JSON.stringify(ids);
