/**
 * Analytics: what the corpus and the routines did over a window of
 * collection — publication volume, what each source and each keyword brought,
 * routine health and discovery lag — each as a chart with its numbers on
 * hover and as a table below it (the table is the truth). Every number and
 * every account of how it is counted is the service's; the window and each
 * view's choices are in the address.
 */
import { analytics } from '../api/analytics.js';
import { Glance } from '../analytics/glance.js';
import { HealthView } from '../analytics/health.js';
import { KeywordsView } from '../analytics/keywords.js';
import { LagView } from '../analytics/lag.js';
import { param, refusalByField } from '../analytics/params.js';
import { SourcesView } from '../analytics/sources.js';
import { VolumeView } from '../analytics/volume.js';
import { ChoiceField } from '../analytics/choice.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';
import { useSourceNames } from '../ui/use-source-names.js';

const WINDOWS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: '365', label: 'Last 365 days' },
  { value: 'all', label: 'Everything' },
];

const SECTIONS = [
  ['volume', 'Publication volume'],
  ['sources', 'Source contribution'],
  ['keywords', 'Keyword contribution'],
  ['health', 'Routine health'],
  ['lag', 'Discovery lag'],
];

export default function Analytics() {
  const window = param('window');
  const summary = useResource((signal) => analytics.summary({ window: window || undefined }, signal), [window]);
  const routines = useResource((signal) => analytics.routines(signal), []);
  const nameOf = useSourceNames();
  const refusal = refusalByField(summary.error, ['window']);
  // A window the service refused leaves nothing to show: the views wait for one it takes.
  const ready = summary.data && !summary.error;
  return (
    <>
      <header class="page-header page-header-row">
        <div>
          <h1>Analytics</h1>
          <p class="lede">What the corpus and the routines did: papers by month of publication, what each source and keyword brought, routine health and discovery lag.</p>
        </div>
        <form class="filters" aria-label="Analytics window" onSubmit={(e) => e.preventDefault()}>
          <ChoiceField name="window" label="Collected in" value={window} fallback="all" choices={WINDOWS} other={(v) => `Last ${v.replace(/d$/, '')} days`} errors={refusal.byField.window} />
        </form>
      </header>
      <ErrorNote error={refusal.rest} title="svc could not answer the analytics." />
      {!summary.data && summary.loading && <Busy />}
      {ready && (
        <>
          <nav class="on-this-page" aria-label="Views on this page">
            <ul>
              {SECTIONS.map(([id, label]) => (
                <li key={id}>
                  <a href={`#${id}`}>{label}</a>
                </li>
              ))}
            </ul>
          </nav>
          <Glance summary={summary.data!} />
          <VolumeView window={window} nameOf={nameOf} />
          <SourcesView window={window} nameOf={nameOf} />
          <KeywordsView window={window} routines={routines.data?.routines ?? []} />
          <HealthView window={window} />
          <LagView window={window} nameOf={nameOf} />
        </>
      )}
    </>
  );
}
