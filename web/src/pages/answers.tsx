/**
 * Selected answers of one Evidence project (`/evidence/<project>/answers`):
 * choose pages, passages and notes against the service's limits, preview the
 * exact request and its SHA-256, send it as a consent to that hash, follow the
 * answer as it streams, and read saved answers (`?answer=<id>`) with their
 * citations opening the reader — or marked unvalidated — and their exports.
 */
import { useState } from 'preact/hooks';
import { answers, runtimeId, type Answer, type Preview, type Selection } from '../api/answers.js';
import { assistant, type ComposerChoices } from '../api/assistant.js';
import { ApiError } from '../api/errors.js';
import { AnswerView } from '../answers/answer-view.js';
import { Chooser, Counters, type Draft } from '../answers/chooser.js';
import { HistoryList } from '../answers/history.js';
import { useAnswerStream } from '../answers/live.js';
import { PreviewView } from '../answers/preview.js';
import { counts, fieldOf, refusalLocs, selections } from '../answers/selection.js';
import { connectionKey, initialChoices } from '../assistant/choices-picker.js';
import { href, navigate, place } from '../router.js';
import type { PageProps } from '../routes.js';
import { useLeaveGuard } from '../ui/leave-guard.js';
import { Busy, EmptyState, ErrorNote } from '../ui/notes.js';
import { Tabs } from '../ui/tabs.js';
import { useResource } from '../ui/use-resource.js';

interface Context {
  vaultId: string;
  runtime: string;
  projectId: string;
  project: { name: string; revision: number };
}

/** A draft from the address: `?file=<id>&page=N` (the reader's "ask about this page") preselects that page. */
function initialDraft(composer: ComposerChoices): Draft {
  const q = place.value.query;
  const file = q.get('file');
  const files = file ? { [file]: { use: true, pages: q.get('page') ?? '', passages: [] } } : {};
  return { chosen: { files, noteIds: [] }, instruction: '', mode: 'answer', choices: initialChoices(composer) };
}

/** The refusal's messages by the field they belong beside; `rest` for those with no field. */
function placeRefusal(err: unknown, sent: Selection[]): { fields: Record<string, string[]>; rest: boolean } {
  const fields: Record<string, string[]> = {};
  let rest = !(err instanceof ApiError) || (err.items.length === 0 && !Array.isArray(err.detail.loc));
  for (const { loc, message } of refusalLocs(err)) {
    const f = fieldOf(loc, sent);
    if (f) (fields[f] ??= []).push(message);
    else rest = true;
  }
  if (err instanceof ApiError && err.reason === 'invalid_choices') {
    fields.connection = [err.message];
    rest = false;
  }
  return { fields, rest };
}

function Writing({ ctx, answer, onEnd }: { ctx: Context; answer: Answer; onEnd: (saved: Answer | null) => void }) {
  const live = useAnswerStream(ctx.vaultId, ctx.projectId, answer, onEnd);
  const [cancelError, setCancelError] = useState<unknown>(null);
  useLeaveGuard(true, 'The answer is still being written. Leaving this page cancels it. Leave anyway?');
  const cancel = () => answers.cancel(ctx.vaultId, ctx.projectId, answer).catch(setCancelError);
  return (
    <section class="card answer-live" aria-labelledby="live-title">
      <h2 id="live-title">The answer is being written</h2>
      <p class="muted" role="status">
        {live.stage === 'admitted' ? 'Admitted; starting…' : `Stage: ${live.stage.replace(/_/g, ' ')}`}
        {live.model ? `; the response says it is ${live.model}` : ''}
        {live.usage?.provenance === 'reported' ? `; ${live.usage.input_tokens ?? '?'} tokens in, ${live.usage.output_tokens ?? '?'} out` : ''}
      </p>
      <p class="muted small">The text below is not validated until the model finishes. Leaving this page cancels the answer.</p>
      <pre class="quote-text streaming" aria-live="off">{live.text || '…'}</pre>
      <button type="button" class="danger" onClick={cancel}>
        Cancel the answer
      </button>
      <ErrorNote error={live.trouble ?? cancelError} />
    </section>
  );
}

function Ask({ ctx, composer, members, notes, limits }: { ctx: Context; composer: ComposerChoices; members: Awaited<ReturnType<typeof answers.members>>; notes: Awaited<ReturnType<typeof answers.notes>>; limits: NonNullable<Awaited<ReturnType<typeof answers.history>>['selection_limits']> }) {
  const [draft, setDraftState] = useState<Draft>(() => initialDraft(composer));
  const [preview, setPreview] = useState<{ preview: Preview; sent: Selection[] } | null>(null);
  const [refusal, setRefusal] = useState<{ error: unknown; fields: Record<string, string[]>; rest: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [writing, setWriting] = useState<Answer | null>(null);
  const sel = selections(members, notes, draft.chosen);
  // A changed selection is a different request: the consent shown no longer applies.
  const setDraft = (d: Draft) => (setDraftState(d), setPreview(null));
  if (members.length === 0) {
    return (
      <EmptyState title="This project has no files to ask about">
        <p>
          Add files from the Library on the <a href={`/evidence/${ctx.projectId}`}>project's page</a>, then come back to choose pages or passages.
        </p>
      </EmptyState>
    );
  }
  const askPreview = async () => {
    setBusy(true);
    setRefusal(null);
    try {
      const p = await answers.preview(ctx.projectId, {
        expected_vault_id: ctx.vaultId,
        expected_runtime_id: ctx.runtime,
        expected_revision: ctx.project.revision,
        selections: sel,
        note_ids: draft.chosen.noteIds,
        instruction: draft.instruction,
        mode: draft.mode,
        choices: draft.choices,
      });
      setPreview({ preview: p, sent: sel });
    } catch (error) {
      setRefusal({ error, ...placeRefusal(error, sel) });
    } finally {
      setBusy(false);
    }
  };
  const send = async () => {
    if (!preview) return;
    setBusy(true);
    setRefusal(null);
    try {
      setWriting(await answers.send(ctx.vaultId, ctx.projectId, preview.preview));
    } catch (error) {
      setRefusal({ error, fields: {}, rest: true });
    } finally {
      setBusy(false);
    }
  };
  const ended = (saved: Answer | null) => {
    const id = saved?.answer_id ?? writing?.answer_id;
    setWriting(null);
    if (id) navigate(href(place.value.path, { answer: id }), { replace: true });
  };
  if (writing) return <Writing ctx={ctx} answer={writing} onEnd={ended} />;
  const connection = composer.connections.find((c) => connectionKey(c) === connectionKey(draft.choices));
  return (
    <div class="answer-ask">
      <Counters counts={counts(sel, draft.chosen)} instruction={draft.instruction} limits={limits} />
      <Chooser members={members} notes={notes} composer={composer} draft={draft} set={setDraft} errors={refusal?.fields ?? {}} />
      <div class="form-actions">
        <button type="button" onClick={askPreview} disabled={busy}>
          {busy && !preview ? 'Assembling…' : 'Preview the request'}
        </button>
      </div>
      {refusal?.rest && <ErrorNote error={refusal.error} title="svc refused" />}
      {preview && <PreviewView preview={preview.preview} connectionLabel={connection?.label ?? draft.choices.provider} onSend={send} sending={busy} />}
    </div>
  );
}

function OneAnswer({ ctx, answerId }: { ctx: Context; answerId: string }) {
  const { data, error, loading } = useResource((signal) => answers.show(ctx.vaultId, ctx.projectId, answerId, signal), [answerId]);
  const [exportError, setExportError] = useState<unknown>(null);
  const save = (format: 'zip' | 'html') => answers.export(ctx.vaultId, ctx.projectId, answerId, format).then(() => setExportError(null), setExportError);
  return (
    <div>
      <p>
        <a href={place.value.path}>← All answers and a new one</a>
      </p>
      {loading && !data && <Busy label="Reading the answer…" />}
      <ErrorNote error={error} />
      {data && (
        <>
          <AnswerView answer={data} projectId={ctx.projectId} />
          <div class="form-actions">
            <button type="button" class="quiet" onClick={() => save('zip')}>
              Download as ZIP
            </button>
            <button type="button" class="quiet" onClick={() => save('html')}>
              Download as HTML
            </button>
          </div>
          <ErrorNote error={exportError} title="The export was refused" />
        </>
      )}
    </div>
  );
}

async function load(projectId: string, signal: AbortSignal) {
  const vaultId = await answers.vaultId(signal);
  if (!vaultId) return null;
  const [runtime, { project }, members, notes, history, status] = await Promise.all([
    runtimeId(signal),
    answers.project(vaultId, projectId, signal),
    answers.members(vaultId, projectId, signal),
    answers.notes(vaultId, projectId, signal),
    answers.history(vaultId, projectId, undefined, undefined, signal),
    assistant.status(signal),
  ]);
  return { ctx: { vaultId, runtime, projectId, project }, members, notes, history, status };
}

export default function AnswersPage({ params }: PageProps) {
  const projectId = params.project!;
  const answerId = place.value.query.get('answer');
  // Read again when an answer is opened or closed: the history then includes what was just sent.
  const { data, error, loading } = useResource((signal) => load(projectId, signal), [projectId, answerId]);
  return (
    <section class="page answers-page" aria-labelledby="page-title">
      <header class="page-header">
        <p class="breadcrumb">
          <a href="/evidence">Evidence projects</a> › <a href={`/evidence/${projectId}`}>{data?.ctx.project.name ?? 'Project'}</a>
        </p>
        <h1 id="page-title">Selected answers</h1>
        <p class="muted">A model reads only what you select here. You see the exact request and its SHA-256 before anything is sent; every citation must quote the selection exactly.</p>
      </header>
      {loading && !data && <Busy label="Reading the project…" />}
      <ErrorNote error={error} />
      {data === null && (
        <EmptyState title="There is no Library yet">
          <p>
            Create the vault on the <a href="/library">Library page</a>, import files and add them to a project.
          </p>
        </EmptyState>
      )}
      {data &&
        (answerId ? (
          <OneAnswer ctx={data.ctx} answerId={answerId} />
        ) : (
          <Tabs
            label="Selected answers"
            tabs={[
              { id: 'ask', label: 'Ask' },
              { id: 'history', label: 'History', badge: data.history.total },
            ]}
          >
            {(tab) =>
              tab === 'ask' ? (
                <Ask ctx={data.ctx} composer={data.status.composer_choices} members={data.members} notes={data.notes} limits={data.history.selection_limits} />
              ) : (
                <HistoryList vaultId={data.ctx.vaultId} projectId={projectId} first={data.history} />
              )
            }
          </Tabs>
        ))}
    </section>
  );
}
