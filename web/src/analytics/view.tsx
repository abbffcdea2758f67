/**
 * One analytics view on the page: its heading and controls, a sentence of what
 * it shows, the chart and its table (or the service's refusal, or what to do
 * when there is nothing yet), and the service's own account of how it counts.
 */
import type { ComponentChildren, VNode } from 'preact';
import { Busy, ErrorNote } from '../ui/notes.js';

export function View(props: { id: string; title: string; lede: ComponentChildren; controls?: ComponentChildren; error: unknown; loading: boolean; method?: string; children?: ComponentChildren }) {
  return (
    <section class="card analytics-view" id={props.id} aria-labelledby={`${props.id}-title`}>
      <div class="view-head">
        <h2 id={`${props.id}-title`}>{props.title}</h2>
        {props.controls && <div class="view-controls">{props.controls}</div>}
      </div>
      <p class="muted">{props.lede}</p>
      <ErrorNote error={props.error} title={`svc could not answer ${props.title.toLowerCase()}.`} />
      {props.loading && !props.children && <Busy />}
      {props.children}
      {props.method && (
        <details class="method">
          <summary>How svc counts this</summary>
          <p>{props.method}</p>
        </details>
      )}
    </section>
  );
}

export interface Column<R> {
  label: string;
  /** What the cell shows: a figure, words, or a link (a run's page). */
  cell: (row: R) => string | number | null | VNode;
  /** header: the row's own name (a row header); text: words, aligned left; otherwise a figure, aligned right. */
  kind?: 'header' | 'text';
}

/** The numbers a chart draws, as a table: the truth for every reader. Long tables scroll inside their own focusable region. */
export function NumbersTable<R>({ caption, columns, rows, rowKey }: { caption: string; columns: Column<R>[]; rows: R[]; rowKey: (row: R) => string }) {
  const text = (v: string | number | null | VNode) => (v === null ? '—' : typeof v === 'number' ? v.toLocaleString() : v);
  const align = (c: Column<R>) => (c.kind ? undefined : 'num');
  return (
    <div class="table-wrap numbers" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" class={align(c)}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) =>
                c.kind === 'header' ? (
                  <th key={c.label} scope="row">
                    {text(c.cell(row))}
                  </th>
                ) : (
                  <td key={c.label} class={align(c)}>
                    {text(c.cell(row))}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
