import { defineTool } from '../tool.js';

const VIEWS: Record<string, string> = {
  overview: '/api/analytics/overview',
  volume: '/api/analytics/publication-volume',
  sources: '/api/analytics/source-contribution',
  keywords: '/api/analytics/keyword-contribution',
  'routine-health': '/api/analytics/routine-health',
  'discovery-lag': '/api/analytics/discovery-lag',
};

export const getAnalytics = defineTool({
  name: 'get_analytics',
  title: 'Corpus analytics',
  description: 'One analytics view with true totals and the method used: overview, volume, sources, keywords, routine-health or discovery-lag.',
  args: {
    view: { type: 'string', description: 'Which view.', required: true, enum: Object.keys(VIEWS) },
    window: {
      type: 'string',
      description: 'Optional window: the last N days of collection, written 30 or 30d (1 to 3650 days), or all (the default).',
      maxLength: 32,
      // Spelled without flags: the advertised JSON-Schema pattern is this regex's source, which has none.
      pattern: /^(?:\d{1,5}[dD]?|[aA][lL][lL])$/,
      patternHint: 'must be a number of days (30 or 30d) or all',
    },
  },
  run: (backend, args) => backend.get(VIEWS[args.view]!, { window: args.window }),
});

export const getWatchdogFindings = defineTool({
  name: 'get_watchdog_findings',
  title: 'Watchdog findings',
  description: 'Routines and sources that look broken or unusual, each with what to do and the thresholds used, and the list of what the watchdog cannot judge.',
  args: { include_muted: { type: 'boolean', description: 'Also muted findings.', default: false } },
  run: (backend, args) => backend.get('/api/watchdog', { include_muted: args.include_muted }),
});
