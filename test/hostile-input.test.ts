/**
 * The hostile-input suite (issue 29): every attack below runs in `npm test` end to end, against
 * real loopback servers (sources, SMTP, webhook receivers) and the recorded fixture sources,
 * with a canary folder (test/_hostile.ts) planted beside svc's data, state and vault folders and
 * checked after each attack, so that a regression of any of them fails CI. One line per attack,
 * naming the file that holds it:
 *
 * Contained when the attacker tried them:
 *   - XML external entities (SYSTEM file: and URL) in arXiv and PubMed answers: hostile-input-sources.test.ts
 *   - billion laughs and a quadratic entity blow-up in arXiv and PubMed answers: hostile-input-sources.test.ts
 *   - a gzip bomb as a source answer (Content-Encoding: gzip, 64 GiB inflated): hostile-input-sources.test.ts
 *   - backup bundle tar entries named ../ (plain and in a pax record), absolute, with \ or NUL: hostile-input-bundles.test.ts
 *   - backup bundle tar entries that are symlinks, hard links, folders, FIFOs, or a name twice: hostile-input-bundles.test.ts
 *   - a gzip bomb given as a backup bundle (.tar.gz, 16 GiB inflated): hostile-input-bundles.test.ts
 *   - webhook destinations that are not HTTP (file:, ftp:, gopher:, data:, javascript:, ws:, dict:): hostile-input-delivery.test.ts
 *   - webhook receivers that redirect (301, 302, 307, 308; to another host, to a file: URL): hostile-input-delivery.test.ts
 *   - e-mail header injection (CR/LF, Bcc:, To: in routine names, queries, addresses, email settings): hostile-input-delivery.test.ts
 *   - symlinked, hard-linked and FIFO files, and symlinked folders, in the Library vault: hostile-input-library.test.ts
 *   - svc library import of a FIFO, a symbolic link and a hard link: hostile-input-library.test.ts
 *   - encrypted PDFs (empty and real user password) in the reader and answer previews: hostile-input-pdf.test.ts
 *   - a PDF page tree of shared nodes declaring a billion pages: hostile-input-pdf.test.ts
 *   - PDFs with an object stream inside itself, a looping cross-reference chain, 100,000-deep nesting: hostile-input-pdf.test.ts
 *   - PDFs with a content stream inflating to 28 MB of operators, or a 60,000 × 60,000 image: hostile-input-pdf.test.ts
 *   - PDFs with JavaScript, URI, SubmitForm and Launch actions aimed at a loopback receiver: hostile-input-pdf.test.ts
 *   - SQL and FTS metacharacters in every free text that reaches SQL or the search index: hostile-input-sql.test.ts
 *   - NUL bytes in free text, path parameters, query parameters and headers: hostile-input-sql.test.ts
 *   (Three of these were not wholly contained after all and were fixed with their tests: the
 *   reader listed every page a PDF declared, so a billion-page tree ran the server out of memory;
 *   the conversation browser read a search text only up to a NUL; an external entity failed as
 *   "an unexpected shape" instead of saying so.)
 *
 * Not contained when the attacker tried them, fixed with their tests:
 *   - restore folder names taken from a crafted bundle: hostile-restore.test.ts
 *   - giant source answers: hostile-source.test.ts
 *   - CSV formula injection and BibTeX braces in exports: hostile-exports.test.ts
 *   - deeply nested JSON bodies: hostile-json.test.ts
 *   - restart reasons: hostile-restart.test.ts
 *
 * The test below keeps this list whole: every hostile*.test.ts in test/ is named here.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './_setup.js';

const TEST_DIR = path.join(ROOT, 'test');
const header = () => fs.readFileSync(path.join(TEST_DIR, 'hostile-input.test.ts'), 'utf8').split('*/')[0]!;

test('every hostile-input file of the suite is named in the list above, and every hostile-input file named exists', () => {
  const present = fs.readdirSync(TEST_DIR).filter((n) => /^hostile.*\.test\.ts$/.test(n) && n !== 'hostile-input.test.ts');
  const named = new Set(header().match(/hostile[\w-]*\.test\.ts/g) ?? []);
  assert.equal(present.filter((n) => !named.has(n)), [], 'a hostile test file the list does not name');
  const ours = [...named].filter((n) => n.startsWith('hostile-input-'));
  assert.equal(ours.filter((n) => !present.includes(n)), [], 'a hostile-input file the list names that does not exist');
  assert.ok(ours.length >= 6);
});

test.run();
