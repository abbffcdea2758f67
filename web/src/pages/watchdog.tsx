/**
 * The watchdog: findings about routines and sources, broken first, each with
 * since when, what to do and what it rests on; mute one (with a note saying
 * why) and it leaves the alarm total and moves to the muted findings, shown
 * apart with when and why, where Unmute returns it. What no check could judge,
 * and what each check looks at, follow — all in the service's words.
 */
import { useRef, useState } from 'preact/hooks';
import { watchdog } from '../api/watchdog.js';
import { count, minute } from '../ui/format.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { FindingCard } from '../watchdog/finding.js';

export default function Watchdog() {
  const answer = useResource((signal) => watchdog.findings(signal), []);
  const [said, setSaid] = useState('');
  const status = useRef<HTMLParagraphElement>(null);
  const data = answer.data;
  const changed = (message: string) => {
    setSaid(message);
    answer.reload();
    requestAnimationFrame(() => status.current?.focus());
  };
  const alarms = data?.findings.filter((f) => !f.muted) ?? [];
  const muted = data?.findings.filter((f) => f.muted) ?? [];
  return (
    <>
      <header class="page-header">
        <h1>Watchdog</h1>
        <p class="lede">What looks broken or unusual in your routines, sources and deliveries, since when, and what to do about it.</p>
      </header>
      <p class="status-line" role="status" tabIndex={-1} ref={status}>
        {said}
      </p>
      <ErrorNote error={answer.error} title="svc could not read the watchdog's findings." />
      {!data && answer.loading && <Busy />}
      {data && (
        <>
          <p class="watchdog-summary">
            <strong>{count(data.alarm_total, 'alarm')}</strong>
            {data.alarm_total > 0 && `: ${data.by_label.broken.toLocaleString()} broken, ${data.by_label.unusual.toLocaleString()} unusual`}
            {data.muted_total > 0 && `; ${data.muted_total.toLocaleString()} muted`}. <span class="muted">Checked {minute(data.checked_at_utc)}.</span>
          </p>
          <section aria-labelledby="alarms-title" class="findings">
            <h2 id="alarms-title">Findings</h2>
            {alarms.length === 0 ? (
              <EmptyState title={muted.length ? 'Nothing else looks wrong: every current finding is muted.' : 'Nothing looks wrong.'}>
                <p>
                  The watchdog reads the stored history of runs and deliveries on every visit. A source failing run after run, a routine gone quiet, scheduled fires
                  missed while svc was closed, a missing key or a failing delivery appears here with what to do. Meanwhile, see the <a href="/runs">runs</a> or{' '}
                  <a href="/analytics#health">routine health</a>.
                </p>
              </EmptyState>
            ) : (
              alarms.map((f) => <FindingCard key={f.key} finding={f} onChanged={changed} />)
            )}
          </section>
          {muted.length > 0 && (
            <section aria-labelledby="muted-title" class="findings findings-muted">
              <h2 id="muted-title">Muted</h2>
              <p class="muted">Acknowledged findings, out of the alarm total until unmuted, or until they clear: raised again later, they alarm again.</p>
              {muted.map((f) => (
                <FindingCard key={f.key} finding={f} onChanged={changed} />
              ))}
            </section>
          )}
          {data.could_not_judge.length > 0 && (
            <section aria-labelledby="unjudged-title" class="card unjudged">
              <h2 id="unjudged-title">What could not be judged</h2>
              <ul class="plain-list">
                {data.could_not_judge.map((u, i) => (
                  <li key={i}>
                    {u.subject?.name ? <strong>{u.subject.name}</strong> : <strong>{u.check.replace(/_/g, ' ')}</strong>}: {u.reason}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <details class="method">
            <summary>What the watchdog checks</summary>
            <ul class="plain-list">
              {data.checks.map((c) => (
                <li key={c.check}>{c.describes}</li>
              ))}
            </ul>
            <p>{data.method}</p>
          </details>
        </>
      )}
    </>
  );
}
