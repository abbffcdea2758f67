/**
 * The Evidence reader (/evidence/<project>/files/<file>?page=N): the PDF page
 * drawn by pdf.js beside the service's extracted text of that page, where
 * notes are made and highlighted — anchors are codepoint offsets in that text,
 * never in the drawing. Text and Markdown files are one page of text.
 * A citation of a selected answer opens `?page=N&passage=<start>-<end>`:
 * that range of the page text is outlined and focused (reader/passage.ts);
 * a page turn drops it.
 * Readiness for tests and the bench: `data-ready-page` names the page once it
 * is drawn and its text shown; reader/timing.ts names the measures of the way there.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/errors.js';
import { reader, type FileRef, type ReaderPage as PageText } from '../api/reader.js';
import { DrawnPage } from '../reader/drawn-page.js';
import { findAll, FindInPage } from '../reader/find.js';
import { NoteForm, type NoteDraft } from '../reader/note-form.js';
import { NotesList } from '../reader/notes-list.js';
import { codepointAt, selectionUnits, trimUnits } from '../reader/offsets.js';
import { PageNav, usePageKeys } from '../reader/page-nav.js';
import { citedPassage } from '../reader/passage.js';
import type { PdfDocument, PDFWorker } from '../reader/pdf.js';
import { measureSince, PDF_BYTES_MEASURE, PDF_OPEN_MEASURE, TEXT_MEASURE } from '../reader/timing.js';
import { TextPane } from '../reader/text-pane.js';
import { PAGE_STATUS_WORDS } from '../reader/words.js';
import { href, navigate, place } from '../router.js';
import type { PageProps } from '../routes.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { useResource } from '../ui/use-resource.js';

type PdfModule = typeof import('../reader/pdf.js');
const ZOOMS = [0.75, 1, 1.25, 1.5, 2];

function passageDraft(p: PageText, units: { start: number; end: number }): NoteDraft {
  const text = p.text!;
  return {
    kind: 'passage',
    anchor: {
      page_basis: p.page_basis,
      page: p.requested_page,
      extraction_contract: p.extraction_contract,
      page_sha256: p.page_sha256!,
      start: codepointAt(text, units.start),
      end: codepointAt(text, units.end),
      quote: text.slice(units.start, units.end),
    },
  };
}

export default function ReaderPage({ params }: PageProps) {
  const { project: projectId, file: fileId } = params as { project: string; file: string };
  const path = place.value.path;
  const page = Math.max(1, Math.floor(Number(place.value.query.get('page'))) || 1);
  const noteParam = Number(place.value.query.get('note')) || null;
  const passageParam = place.value.query.get('passage');

  const setup = useResource(async (signal) => {
    const library = await reader.library(signal);
    if (!library.vault) return { vaultId: null };
    const vaultId = library.vault.vault_id;
    const [project, file] = await Promise.all([reader.project(vaultId, projectId!, signal), reader.file(vaultId, fileId!, signal)]);
    return { vaultId, project, file };
  }, [projectId, fileId]);
  const s = setup.data;
  const ref: FileRef | null = s?.vaultId && s.file ? { vaultId: s.vaultId, projectId: projectId!, fileId: fileId!, versionId: s.file.version_id } : null;
  const refKey = ref ? `${ref.projectId}/${ref.fileId}/${ref.versionId}` : '';
  const isPdf = s?.file?.format === 'pdf';

  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const text = useResource((signal) => {
    if (!ref) return Promise.resolve(undefined);
    const started = performance.now();
    return reader.page(ref, page, signal).then((p) => (measureSince(TEXT_MEASURE, started), p));
  }, [refKey, page, generation]);
  const notes = useResource((signal) => (ref ? reader.notes(ref, signal) : Promise.resolve(undefined)), [refKey, generation]);
  const shown = text.data && text.data.requested_page === page ? text.data : undefined;
  const cited = useMemo(() => (shown && passageParam !== null ? citedPassage(passageParam, shown.text ?? null) : null), [shown, passageParam]);

  // The verified bytes are fetched once per file; pdf.js (its own chunk, only here) and its
  // worker start meanwhile, so the document opens as soon as the bytes are in.
  const [pdf, setPdf] = useState<{ module: PdfModule; doc: PdfDocument } | undefined>();
  const [pdfError, setPdfError] = useState<unknown>(null);
  useEffect(() => {
    if (!ref || !isPdf) return;
    const controller = new AbortController();
    const started = performance.now();
    let doc: PdfDocument | undefined;
    let worker: PDFWorker | undefined;
    const loaded = import('../reader/pdf.js').then((module) => {
      if (!controller.signal.aborted) worker = module.startWorker();
      return module;
    });
    const bytes = reader.pdfBytes(ref, controller.signal).then((b) => (measureSince(PDF_BYTES_MEASURE, started), b));
    Promise.all([loaded, bytes])
      .then(async ([module, b]) => {
        if (controller.signal.aborted || !worker) return;
        doc = await module.openPdf(b, worker);
        measureSince(PDF_OPEN_MEASURE, started);
        if (controller.signal.aborted) return void doc.destroy();
        setPdf({ module, doc });
      })
      .catch((err) => !controller.signal.aborted && (err as Error)?.name !== 'AbortError' && setPdfError(err));
    return () => {
      controller.abort();
      // The worker was started here, so it ends here, after the document it serves.
      void Promise.resolve(doc?.destroy()).finally(() => worker?.destroy());
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [refKey, isPdf]);

  const [drawnPage, setDrawnPage] = useState(0);
  const onDrawn = useCallback((n: number) => setDrawnPage(n), []);
  const ready = shown !== undefined && (!isPdf || drawnPage === page || pdfError !== null);

  const count = shown?.page_count ?? text.data?.page_count ?? pdf?.doc.numPages ?? null;
  const go = useCallback((n: number) => navigate(href(path, { page: n }), { replace: true }), [path]);
  usePageKeys(page, count, go);

  const [zoom, setZoom] = useState(1);
  const [query, setQuery] = useState('');
  const [current, setCurrent] = useState(0);
  const matches = useMemo(() => findAll(shown?.text ?? '', query), [shown?.text, query]);
  useEffect(() => setCurrent(0), [query, page]);

  const paneRef = useRef<HTMLDivElement | null>(null);
  const textRef = useRef('');
  textRef.current = shown?.text ?? '';
  const [selected, setSelected] = useState<{ start: number; end: number } | null>(null);
  useEffect(() => {
    const onChange = () => {
      const units = paneRef.current ? selectionUnits(paneRef.current, getSelection()) : null;
      const trimmed = units && trimUnits(textRef.current, units.start, units.end);
      setSelected(trimmed && trimmed.end > trimmed.start ? trimmed : null);
    };
    document.addEventListener('selectionchange', onChange);
    return () => document.removeEventListener('selectionchange', onChange);
  }, []);
  useEffect(() => setSelected(null), [page]);

  const [draft, setDraft] = useState<NoteDraft | null>(null);
  const [said, setSaid] = useState('');
  const [focusNote, setFocusNote] = useState<number | null>(noteParam);
  useEffect(() => setFocusNote(noteParam), [noteParam, page]);

  // The revision read again after a conflict, before the page's own reads are back (see save).
  const [rereadRevision, setRereadRevision] = useState(0);
  const revision = Math.max(shown?.project_revision ?? 0, notes.data?.revision ?? 0, s?.project?.revision ?? 0, rereadRevision);
  async function save(body: string) {
    try {
      const saved = await reader.createNote(ref!, revision, { ...draft!, body });
      setDraft(null);
      setSaid(saved.note.kind === 'passage' ? `Note saved on page ${saved.note.anchor!.page}; its passage is highlighted.` : 'Plain note saved.');
      setFocusNote(saved.note.note_id);
      getSelection()?.removeAllRanges();
    } catch (err) {
      // A stale revision is said and the page read again; the draft stays for a second Save. The words say
      // "read again" once the current revision is in hand, so a Save right after them cannot carry the stale one.
      if (err instanceof ApiError && err.reason === 'revision_conflict') {
        const changed = 'The project changed since this page was read (another tab or the command line)';
        const current = await reader.notes(ref!).catch(() => null);
        if (current) setRereadRevision(current.revision);
        setSaid(current ? `${changed}; the reader has read it again — save once more to keep this note.` : `${changed}, and the reader could not read it again: reload the page, then save.`);
      }
      throw err;
    } finally {
      reload();
    }
  }

  if (setup.error && !s) return <ErrorNote error={setup.error} title="svc could not open this file in the reader." />;
  if (!s) return <Busy label="Opening the reader…" />;
  if (!s.vaultId)
    return (
      <EmptyState title="There is no Library vault yet.">
        <p>
          Create the vault and import files on the <a href="/library">Library</a> page, then add them to an <a href="/evidence">evidence project</a>.
        </p>
      </EmptyState>
    );
  const { project, file } = s as Required<typeof s>;
  const highlighted = new Set((shown?.highlights ?? []).map((h) => h.note_id));
  const notHighlighted = shown?.not_highlighted ?? [];

  return (
    <div class="reader" data-ready-page={ready ? page : undefined}>
      <p class="breadcrumb">
        <a href="/evidence">Evidence</a> › <a href={`/evidence/${project.project_id}`}>{project.name}</a>
      </p>
      <header class="page-header">
        <h1>{file.original_name}</h1>
        <p class="lede">
          Version <code title={file.sha256}>{file.sha256.slice(0, 12)}</code> · text by the service’s extraction{shown ? <> (<code>{shown.extraction_contract}</code>)</> : null}
          {isPdf ? ' · the drawing is for viewing; notes are made in the text' : ' · one page of text'}
        </p>
      </header>

      <div class="reader-toolbar">
        {isPdf && <PageNav page={page} count={count} go={go} />}
        <FindInPage query={query} setQuery={setQuery} total={matches.length} current={current} setCurrent={setCurrent} />
        <div class="reader-actions">
          <button type="button" disabled={!selected || !shown?.text} onMouseDown={(e) => e.preventDefault()} onClick={() => selected && shown && setDraft(passageDraft(shown, selected))} title="Select words in the page text first">
            Note on selection
          </button>
          <button type="button" class="quiet" disabled={matches.length === 0 || !shown?.page_sha256} onClick={() => shown && setDraft(passageDraft(shown, matches[current]!))}>
            Note on this match
          </button>
          <button type="button" class="quiet" onClick={() => setDraft({ kind: 'plain', anchor: null })}>
            Plain note
          </button>
        </div>
      </div>
      <p class="status-line" role="status" aria-live="polite">
        {said}
      </p>
      {draft && <NoteForm key={JSON.stringify(draft)} draft={draft} save={save} cancel={() => setDraft(null)} />}

      <div class={isPdf ? 'reader-panes' : 'reader-panes reader-panes-text'}>
        {isPdf && (
          <section class="reader-pane" aria-labelledby="drawn-title">
            <div class="reader-pane-head">
              <h2 id="drawn-title">Page {page}, drawn</h2>
              <label for="reader-zoom">Zoom</label>
              <select id="reader-zoom" value={String(zoom)} onChange={(e) => setZoom(Number(e.currentTarget.value))}>
                {ZOOMS.map((z) => (
                  <option key={z} value={String(z)}>
                    {z === 1 ? 'Fit width' : `${Math.round(z * 100)}%`}
                  </option>
                ))}
              </select>
            </div>
            <div class="reader-scroll" tabIndex={0} role="region" aria-label="Drawn page">
              <ErrorNote error={pdfError} title="The PDF could not be drawn (its text is still shown)." />
              {!pdf && !pdfError && <Busy label="Loading the PDF…" />}
              <DrawnPage doc={pdf?.doc} pdf={pdf?.module} page={page} zoom={zoom} onDone={onDrawn} />
            </div>
          </section>
        )}
        <section class="reader-pane" aria-labelledby="text-title">
          <div class="reader-pane-head">
            <h2 id="text-title">{isPdf ? `Page ${page}, text` : 'Text'}</h2>
          </div>
          <ErrorNote error={text.error} title={`svc could not read page ${page}.`} />
          {!shown && !text.error && <Busy label={`Reading page ${page}…`} />}
          {shown && shown.status !== 'extracted' && (
            <div class={shown.status === 'no_text' ? 'note note-warn' : 'note note-error'} role="note">
              <p>{PAGE_STATUS_WORDS[shown.status]}</p>
              {shown.message && <p>{shown.message}</p>}
              {shown.reason && <p class="note-reason">svc's reason: {shown.reason.replace(/_/g, ' ')}</p>}
            </div>
          )}
          {notHighlighted.length > 0 && (
            <p class="note note-warn">
              {notHighlighted.length === 1 ? 'A note saved on this page is' : `${notHighlighted.length} notes saved on this page are`} not highlighted: {notHighlighted.length === 1 ? 'its anchor no longer matches' : 'their anchors no longer match'} this text. They are listed below, never moved.
            </p>
          )}
          {cited && !cited.ok && (
            <p class="note note-warn" role="note">
              The cited passage could not be shown: {cited.why}. Nothing else is highlighted in its place.
            </p>
          )}
          {cited?.ok && (
            <p class="muted small cited-said">
              The cited passage (characters {cited.codepoints.start}–{cited.codepoints.end}) is outlined below.
            </p>
          )}
          {shown?.text && <TextPane text={shown.text} highlights={shown.highlights} matches={matches} current={current} focusNote={focusNote} cited={cited?.ok ? cited : null} paneRef={paneRef} />}
        </section>
      </div>

      <ErrorNote error={notes.error} title="svc could not list the notes of this file." />
      {notes.data && <NotesList notes={notes.data.notes} page={page} path={path} highlighted={highlighted} notHighlighted={notHighlighted} showNote={setFocusNote} />}
    </div>
  );
}
