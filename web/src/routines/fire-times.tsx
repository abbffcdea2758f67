/** Fire times as a person reads them: weekday, date and time in the schedule's own zone (the instants come from the service). */
const formats = new Map<string, Intl.DateTimeFormat>();

export function inZone(iso: string, zone: string): string {
  let format = formats.get(zone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    } catch {
      format = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    }
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.weekday} ${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

export function FireList({ fires, zone, label }: { fires: string[]; zone: string; label: string }) {
  return (
    <ol class="fire-list" aria-label={label}>
      {fires.map((f) => (
        <li key={f}>
          <time dateTime={f}>{inZone(f, zone)}</time> <span class="muted">{zone}</span>
        </li>
      ))}
    </ol>
  );
}
