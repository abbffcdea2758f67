import fs from 'node:fs';
import type { Command } from 'commander';
import { BASES, type Basis } from '../../src/profiles/bases.js';
import { MATCHES_DEFAULT_LIMIT, MATCHES_MAX_LIMIT, profileLifecycle, profileMatches } from '../../src/profiles/matches.js';
import { parseOrcid, PROFILE_KINDS } from '../../src/profiles/schema.js';
import { createProfile, deleteProfile, listProfiles, readProfile, requireProfile, updateProfile } from '../../src/profiles/service.js';
import { starterProfiles } from '../../src/profiles/starter.js';
import { exportProfile, importProfiles } from '../../src/profiles/transfer.js';
import { parseStrictJson } from '../../src/util/json-strict.js';
import { confirmDestructive, declined } from '../lib/confirm.js';
import { withContext } from '../lib/context.js';
import { checkOutputFile, replaceableWithForce, writeOutputFile } from '../lib/output-file.js';
import { enumFlag, idArg, intFlag, given, usageError } from '../lib/flags.js';
import { emit, table, type Io } from '../lib/io.js';
import { clip, count, oneLine } from '../lib/words.js';

interface FieldOpts {
  name?: string;
  kind?: string;
  displayName?: string;
  orcid?: string;
  orcidCited?: boolean;
  alias?: string[];
  affiliation?: string[];
  hint?: string[];
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Flags → the create/update body, each value checked as a flag before anything runs. */
function bodyOf(opts: FieldOpts & { noOrcid?: boolean }): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (opts.name !== undefined) body.name = opts.name;
  if (opts.kind !== undefined) body.kind = enumFlag(opts.kind, '--kind', PROFILE_KINDS);
  if (opts.displayName !== undefined) body.display_name = opts.displayName;
  if (opts.orcid !== undefined) {
    if (!parseOrcid(opts.orcid)) throw usageError(`--orcid must be an ORCID iD with a valid check digit (e.g. 0000-0002-1825-0097), not ${given(opts.orcid)}.`);
    body.orcid = opts.orcid;
  }
  if (opts.noOrcid) body.orcid = null;
  if (opts.orcidCited !== undefined) body.orcid_cited = opts.orcidCited;
  if (opts.alias) body.aliases = opts.alias;
  if (opts.affiliation) body.affiliations = opts.affiliation;
  if (opts.hint) body.field_hints = opts.hint;
  return body;
}

/** `add` and `edit` share these; only a new profile has a default kind (edit keeps the stored one). */
const fieldOptions = (cmd: Command, kindHelp = 'person or group (default person)') =>
  cmd
    .option('--kind <kind>', kindHelp)
    .option('--display-name <text>', 'how to show it')
    .option('--orcid <id>', 'ORCID iD: matches by identity')
    .option('--orcid-cited', 'also match papers whose source record cites the ORCID iD outside an author record')
    .option('--alias <name>', 'another spelling or former name (repeat)', collect)
    .option('--affiliation <text>', 'an affiliation that confirms a name match (repeat)', collect)
    .option('--hint <text>', 'a field hint noted in the evidence (repeat)', collect);

/** Names, aliases and affiliations are set over HTTP or MCP, or imported: each stays on its line. */
const describe = (p: { id?: number; name: string; kind: string; orcid: string | null; basis_warning?: string }) =>
  `${oneLine(`${p.id !== undefined ? `Profile ${p.id}: ` : ''}${p.name} (${p.kind}${p.orcid ? `, ORCID ${p.orcid}` : ''})`)}${p.basis_warning ? `\n  warning: ${oneLine(p.basis_warning)}` : ''}`;

function readImportFile(file: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = parseStrictJson(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw usageError(`${file} is not JSON: ${(err as Error).message}`, 'invalid_file');
  }
  if (Array.isArray(parsed)) return parsed;
  if (parsed && typeof parsed === 'object' && Array.isArray((parsed as { profiles?: unknown }).profiles)) return (parsed as { profiles: unknown[] }).profiles;
  return [parsed];
}

export function register(program: Command, io: Io): void {
  const profile = program.command('profile').description('watch profiles: follow a person, with the basis of every match');
  fieldOptions(profile.command('add').argument('<name>', 'the name as papers write it').description('create a watch profile and match it against the corpus'))
    .action((name: string, opts: FieldOpts) => withContext(io, (ctx) => {
      const created = createProfile(ctx, bodyOf({ ...opts, name }));
      emit(io, created, () => `${describe(created)}\n  ${count(created.match_count, 'matching paper')} in the corpus.`);
    }));
  profile.command('list').option('--kind <kind>', 'person or group').description('every watch profile')
    .action((opts: { kind?: string }) => withContext(io, (ctx) => {
      const page = listProfiles(ctx, enumFlag(opts.kind, '--kind', PROFILE_KINDS));
      emit(io, page, () => page.profiles.length
        ? table([['ID', 'KIND', 'ORCID', 'MATCHES', 'NAME'], ...page.profiles.map((p) => [String(p.id), p.kind, p.orcid ?? '(name only)', String(p.match_count), p.name])])
        : 'No watch profiles. Add one with `svc profile add NAME --orcid ID`, or see `svc profile starter`.');
    }));
  profile.command('show').argument('<id>', 'profile id').description('one profile with its match counts by basis')
    .action((id: string) => withContext(io, (ctx) => {
      const p = readProfile(ctx, idArg(id, 'profile'));
      emit(io, p, () => [describe(p), ...[`  aliases: ${p.aliases.join('; ') || '-'}`, `  affiliations: ${p.affiliations.join('; ') || '-'}`, `  field hints: ${p.field_hints.join('; ') || '-'}`,
        `  matches: ${p.match_count} (${BASES.map((b) => `${b} ${p.by_basis[b]}`).join(', ')})`].map(oneLine)].join('\n'));
    }));
  profile.command('matches').argument('<id>', 'profile id')
    .option('--basis <basis>', `only one basis: ${BASES.join(', ')}`)
    .option('--limit <n>', `rows per page (1-${MATCHES_MAX_LIMIT})`)
    .option('--offset <n>', 'rows to skip')
    .option('--lifecycle', 'retractions, corrections and new versions recorded on the matched papers')
    .description('matched papers, each with its basis, author and evidence')
    .action((id: string, opts: { basis?: string; limit?: string; offset?: string; lifecycle?: boolean }) => withContext(io, (ctx) => {
      const profileId = idArg(id, 'profile');
      if (opts.lifecycle) {
        const answer = profileLifecycle(ctx, profileId);
        return emit(io, answer, () => answer.findings.length
          ? table([['DOC', 'EVENT', 'BASIS', 'NOTICE', 'TITLE'], ...answer.findings.map((f) => [String(f.document_id), f.event, f.basis, f.notice ?? '-', clip(f.title, 60)])])
          : `No lifecycle findings on the ${count(answer.matched_papers, 'matched paper')}.`);
      }
      const page = profileMatches(ctx, profileId, {
        basis: enumFlag(opts.basis, '--basis', BASES) as Basis | undefined,
        limit: intFlag(opts.limit, '--limit', { min: 1, max: MATCHES_MAX_LIMIT }, MATCHES_DEFAULT_LIMIT),
        offset: intFlag(opts.offset, '--offset', { min: 0, max: Number.MAX_SAFE_INTEGER }, 0),
      });
      emit(io, page, () => {
        const rows = page.matches.map((m) => [String(m.document_id), m.basis, m.matched_author ?? '-', (m.publication_date ?? '').slice(0, 10), clip(m.title, 60)]);
        const used = BASES.filter((b) => page.by_basis[b] > 0);
        return [
          page.matches.length ? table([['DOC', 'BASIS', 'AUTHOR', 'DATE', 'TITLE'], ...rows]) : 'No matches on this page.',
          `${count(page.total, 'match', 'matches')}: ${BASES.map((b) => `${b} ${page.by_basis[b]}`).join(', ')}${page.has_more ? ` — more with --offset ${page.offset + page.matches.length}` : ''}`,
          ...used.map((b) => `  ${b}: ${page.what_a_basis_means[b]}`),
        ].join('\n');
      });
    }));
  fieldOptions(profile.command('edit').argument('<id>', 'profile id').option('--name <name>', 'the name as papers write it').option('--no-orcid', 'remove the ORCID iD')
    .description('change a profile (lists given replace the old ones); matches are recomputed'), 'person or group')
    .action((id: string, opts: Omit<FieldOpts, 'orcid'> & { orcid?: string | boolean }) => withContext(io, (ctx) => {
      // commander turns --no-orcid into orcid: false, and gives orcid: true when neither flag is given.
      const noOrcid = opts.orcid === false;
      const body = bodyOf({ ...opts, orcid: typeof opts.orcid === 'string' ? opts.orcid : undefined, noOrcid });
      if (!Object.keys(body).length) throw usageError('Give at least one field to change, e.g. --orcid, --alias or --affiliation.', 'missing_argument');
      const updated = updateProfile(ctx, idArg(id, 'profile'), body);
      emit(io, updated, () => `${describe(updated)}\n  ${count(updated.match_count, 'matching paper')}.`);
    }));
  profile.command('delete').argument('<id>', 'profile id').option('-y, --yes', 'do not ask for confirmation')
    .description('delete a profile and its matches (the papers stay in the corpus)')
    .action((id: string, opts: { yes?: boolean }) => withContext(io, async (ctx) => {
      const row = requireProfile(ctx, idArg(id, 'profile'));
      if (!(await confirmDestructive(io, `Delete watch profile ${row.id} (${row.name}) and its matches?`, opts.yes))) return declined(io, { id: row.id });
      const answer = deleteProfile(ctx, row.id);
      emit(io, answer, () => `Profile ${row.id} deleted with ${count(answer.matches_removed, 'match', 'matches')}; the papers stay in the corpus.`);
    }));
  profile.command('export').argument('<id>', 'profile id').option('-o, --output <file>', 'write the file here (mode 0600) instead of standard output')
    .option('--force', 'with -o: replace an existing file')
    .description('write a profile as JSON to share or import elsewhere')
    .action((id: string, opts: { output?: string; force?: boolean }) => withContext(io, (ctx) => {
      const into = replaceableWithForce(opts.force);
      if (opts.output) checkOutputFile(opts.output, into);
      const exported = exportProfile(ctx, idArg(id, 'profile'));
      const text = `${JSON.stringify(exported, null, 2)}\n`;
      if (!opts.output) return io.out(text.trimEnd());
      const written = writeOutputFile(opts.output, text, into);
      io.err(`Wrote profile ${id} to ${written}`);
      if (io.json) io.out(JSON.stringify({ path: written }));
    }));
  profile.command('import').argument('<file>', 'a file written by export, or a list of profiles')
    .description('import profiles: all of them or, on any error, none')
    .action((file: string) => withContext(io, (ctx) => {
      const answer = importProfiles(ctx, readImportFile(file));
      emit(io, answer, () => [`Imported ${answer.imported} profile(s)${answer.profiles.length ? `: ${answer.profiles.map((p) => `${p.id} ${p.name}`).join(', ')}` : ''}.`,
        ...answer.skipped.map((s) => `  skipped #${s.index + 1}: ${s.reason}`)].map(oneLine).join('\n'));
    }));
  profile.command('starter').option('--import <name>', 'make one of them yours (by name)')
    .description('a curated set of ready-made profiles, not yet anybody\'s')
    .action((opts: { import?: string }) => withContext(io, (ctx) => {
      const starter = starterProfiles();
      if (opts.import === undefined) {
        return emit(io, starter, () => [table([['NAME', 'KIND', 'ORCID', 'AFFILIATIONS'], ...starter.profiles.map((p) => [p.name, p.kind, p.orcid ?? '(name only)', p.affiliations.join('; ')])]), starter.note].join('\n'));
      }
      const wanted = opts.import.toLowerCase();
      const chosen = starter.profiles.find((p) => p.name.toLowerCase() === wanted || p.display_name.toLowerCase() === wanted);
      if (!chosen) throw usageError(`--import must name one of: ${starter.profiles.map((p) => p.name).join(', ')}.`);
      const { identifier_schemes: _s, basis_warning: _w, ...fields } = chosen;
      const answer = importProfiles(ctx, [fields]);
      emit(io, answer, () => (answer.profiles[0] ? describe(answer.profiles[0]) : answer.skipped.map((s) => s.reason).join('\n')));
    }));
}
