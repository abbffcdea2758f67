import { Help, type Command } from 'commander';
import { muteFinding, unmuteFinding, watchdogFindings } from '../../src/watchdog/service.js';
import { wordedContext } from '../lib/context.js';
import { utcMinute } from '../lib/dates.js';
import { unknownSubcommand, usageError } from '../lib/flags.js';
import { emit, type Io } from '../lib/io.js';
import { clip, count, oneLine } from '../lib/words.js';

/** Refusals name the svc command, not the HTTP route the service words them for. */
const withContext = wordedContext('analytics');

type Answer = ReturnType<typeof watchdogFindings>;

const when = (iso: unknown) => utcMinute(typeof iso === 'string' ? iso : null, '–');

/** The evidence the what-to-do points at ("the runs listed"), one line each: run ids to open, a delivery id. */
function evidenceLines(e: Record<string, any>): string[] {
  const runs: any[] = Array.isArray(e.runs) ? e.runs : Array.isArray(e.recent_runs) ? e.recent_runs : e.last_run ? [e.last_run] : [];
  const lines = runs.map((r) => {
    const what = r.zero_reason ? `${r.zero_reason}${r.http_status ? ` (HTTP ${r.http_status})` : ''}${r.message ? ` — ${clip(String(r.message), 120)}` : ''}` : `${count(r.result_count ?? 0, 'result')}, ${r.new_count ?? 0} new`;
    return `  run ${r.execution_id} (${when(r.started_at_utc)}): ${what}`;
  });
  if (e.latest_delivery_id !== undefined) {
    lines.push(`  delivery ${e.latest_delivery_id} (run ${e.latest_execution_id}): ${count(e.attempts ?? 0, 'attempt')}${e.last_error ? `, last error: ${clip(String(e.last_error), 120)}` : ''}`);
  }
  if (e.missed_count) lines.push(`  ${count(e.missed_count, 'missed fire')}, the last due ${when(e.last_due_at_utc)}`);
  return lines;
}

function findingsText(w: Answer): string {
  // Muted findings are left out unless asked for: say where they are, or "1 muted" leads nowhere.
  const muted = w.muted_total ? `; ${w.muted_total} muted${w.include_muted ? '' : ' (`svc watchdog --muted` lists them)'}` : '';
  const lines = [`${count(w.alarm_total, 'alarm')}: ${w.by_label.broken} broken, ${w.by_label.unusual} unusual${muted}.`];
  for (const f of w.findings) {
    lines.push('', `${f.label.toUpperCase()}${f.muted ? ' (muted)' : ''}  ${f.title}`, `  key: ${f.key}`, `  what to do: ${f.what_to_do}`);
    // When and why it was acknowledged: the note given to `svc watchdog mute --note` was in --json only.
    if (f.muted) lines.push(`  muted: ${when(f.muted_at_utc)}${f.mute_note ? ` — ${f.mute_note}` : ''}`);
    if (f.since_utc) lines.push(`  since: ${when(f.since_utc)}`);
    lines.push(...evidenceLines(f.evidence));
    lines.push(`  thresholds: ${Object.entries(f.thresholds).map(([k, v]) => `${k}=${v}`).join(', ')}`);
  }
  if (w.could_not_judge.length) {
    lines.push('', 'Could not judge:');
    for (const u of w.could_not_judge) lines.push(`  ${u.check}${u.subject?.name ? ` (${u.subject.name})` : ''}: ${u.reason}`);
  }
  // Titles name routines and sources; evidence quotes sources' messages and delivery errors: each on its line.
  return lines.map(oneLine).join('\n');
}

const checkKey = (key: string) => {
  if (key.length === 0 || key.length > 300) throw usageError('A finding key is 1 to 300 characters; `svc watchdog` prints each finding\'s key.');
  return key;
};

export function register(program: Command, io: Io): void {
  const watchdog = program.command('watchdog')
    // The default subcommand's [unknown] argument only catches a mistyped subcommand: not shown in help.
    .configureHelp({ subcommandTerm: (cmd) => new Help().subcommandTerm(cmd).replace(' [unknown]', '') })
    .description('findings about routines and sources: broken or unusual, what to do, what could not be judged');
  watchdog
    .command('show', { isDefault: true })
    .argument('[unknown]', 'not a watchdog command', undefined)
    .description('the current findings (muted ones left out unless --muted)')
    .option('--muted', 'include muted findings')
    .action((unknown: string | undefined, opts: { muted?: boolean }) => unknown !== undefined ? unknownSubcommand('watchdog', unknown, ['show', 'mute', 'unmute']) : withContext(io, (ctx) => {
      const w = watchdogFindings(ctx, Boolean(opts.muted));
      emit(io, w, () => findingsText(w));
    }));
  watchdog
    .command('mute')
    .argument('<key>', 'the finding key, as `svc watchdog` prints it')
    .option('--note <text>', 'why it is acknowledged (at most 500 characters)')
    .description('acknowledge a finding: it leaves the alarm total until unmuted')
    .action((key: string, opts: { note?: string }) => {
      if (opts.note !== undefined && opts.note.length > 500) throw usageError('--note is at most 500 characters.');
      return withContext(io, (ctx) => {
        const answer = muteFinding(ctx, checkKey(key), opts.note ?? null);
        // Muting again keeps the first mute and its note: a new --note dropped without a word looked stored.
        const kept = answer.already_muted && opts.note !== undefined && opts.note !== answer.note ? ` The note given is not stored (a mute keeps its first note); \`svc watchdog unmute\` and mute again to change it.` : '';
        emit(io, answer, () => `${answer.already_muted ? `Already muted since ${when(answer.muted_at_utc)}` : 'Muted'}: ${answer.key}. ${count(answer.alarm_total, 'alarm')} left.${kept}`);
      });
    });
  watchdog
    .command('unmute')
    .argument('<key>', 'the key of a muted finding (`svc watchdog --muted`)')
    .description('return a muted finding to the alarm total')
    .action((key: string) => withContext(io, (ctx) => {
      const answer = unmuteFinding(ctx, checkKey(key));
      emit(io, answer, () => `Unmuted: ${answer.key}. ${count(answer.alarm_total, 'alarm')}.`);
    }));
}
