/** Every row of a project list the service pages (ids ascending under the first page's ceiling). */
import type { Paging } from '../api/evidence.js';

export async function loadAll<T>(page: (at: { afterId?: number; throughId?: number }) => Promise<{ items: T[] } & Paging>): Promise<T[]> {
  const first = await page({});
  const rows = [...first.items];
  let next = first;
  while (next.has_more && next.next_after_id !== null) {
    next = await page({ afterId: next.next_after_id, throughId: first.through_id });
    rows.push(...next.items);
  }
  return rows;
}
