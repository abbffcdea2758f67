/**
 * What to do next after a "not found": the command that lists the kind of item,
 * appended to an error that does not already name one. One table, so every
 * command's "No document 7." ends the same way wherever the refusal came from.
 */
const LISTED_BY: Record<string, string> = {
  document_not_found: '`svc explore` lists the papers in the corpus',
  not_in_queue: '`svc queue list` shows the saved papers and `svc queue add` saves one',
  execution_not_found: '`svc executions list` shows them',
  routine_not_found: '`svc routine list` lists them',
  configuration_not_found: '`svc config list` lists them',
  profile_not_found: '`svc profile list` lists them',
  delivery_not_found: '`svc deliveries list` lists them',
  delivery_target_not_found: '`svc routine target list ROUTINE` lists them',
  file_not_found: '`svc library list` lists the files',
  project_not_found: '`svc evidence list` lists the projects',
  note_not_found: '`svc evidence notes PROJECT` lists them',
  answer_not_found: '`svc answer list PROJECT` lists them',
  answer_not_live: '`svc answer show PROJECT ANSWER` prints an answer that has ended',
  session_not_found: '`svc assistant list` lists the conversations',
  // Not a listing, but the same question: what now.
  bundle_invalid: 'do not restore from this bundle; write a fresh one with `svc backup`, or check an older one with `svc backup verify FILE`',
  bundle_not_found: 'bundles are written to <data dir>/backups/ unless `svc backup -o` named another place',
};

/**
 * Services word a refusal for both doors: "GET /api/routines (or `svc routine
 * list`) lists them". At the command line the route is noise: keep the command.
 */
export function withoutRoute(message: string): string {
  return message.replace(/\b(?:GET|POST|PUT|PATCH|DELETE) \/api\/\S+ \(or (`svc [^`]+`)\)/g, '$1');
}

/** The message with the listing command added, unless it already tells the reader a command. */
export function withNextStep(reason: string, message: string): string {
  const hint = LISTED_BY[reason];
  if (!hint || message.includes('`svc ')) return message;
  return `${message.replace(/\.$/, '')}; ${hint}.`;
}

/** One shell word: kept as is when plain, else single-quoted so a pasted hint runs as printed. */
export function shellWord(value: string): string {
  return /^[\w.@%+=:,/-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `more:` line after a page: the whole command for the next page, with
 * the filters and page size the person gave kept (a next page without its
 * --q or --file would list something else). Pairs with an undefined value
 * are left out.
 */
export function nextPageHint(command: string, flags: [string, string | number | undefined][]): string {
  return `more: ${nextPageCommand(command, flags)}`;
}

/** The next page's whole command alone, for a view that says it in its own sentence. */
export function nextPageCommand(command: string, flags: [string, string | number | undefined][]): string {
  const kept = flags.filter(([, v]) => v !== undefined).map(([flag, v]) => `${flag} ${shellWord(String(v))}`);
  return [command, ...kept].join(' ');
}
