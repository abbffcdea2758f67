/**
 * Settings: every group of the spec as a form (one tab each, the tab in the
 * address), drawn from the service's description of its keys; only what
 * changed is sent, and each refusal is shown beside its field. AI shows its
 * connections, embeddings its lanes; the mail server's and the cloud's
 * passwords are write-only key fields, as on Sources.
 */
import { useEffect, useState } from 'preact/hooks';
import { credentials, type CredentialRow } from '../api/credentials.js';
import { deliveries } from '../api/deliveries.js';
import { GROUPS, readGroup, type EmbeddingsAnswer, type Group } from '../api/settings.js';
import { KeyField } from '../setup/key-field.js';
import { AiSettings } from '../settings/ai-connection.js';
import { EmbeddingSettings } from '../settings/embeddings.js';
import { GroupForm } from '../settings/group-form.js';
import { GROUP_TITLES, LABELS } from '../settings/labels.js';
import { Busy, ErrorNote } from '../ui/notes.js';
import { Tabs } from '../ui/tabs.js';
import { useResource } from '../ui/use-resource.js';

function Password({ name }: { name: string }) {
  const list = useResource((signal) => credentials.list(signal), []);
  const [row, setRow] = useState<CredentialRow | undefined>();
  useEffect(() => setRow(list.data?.credentials.find((c) => c.name === name)), [list.data]);
  if (list.error) return <ErrorNote error={list.error} />;
  return row ? <KeyField row={row} onChanged={setRow} /> : <Busy />;
}

function TestEmail() {
  const [state, setState] = useState<{ busy: boolean; said: string; error: unknown }>({ busy: false, said: '', error: null });
  async function send() {
    setState({ busy: true, said: '', error: null });
    try {
      // To the settings' own recipient: the address is not repeated here, the form above shows it.
      const answer = await deliveries.testEmail('');
      setState({ busy: false, said: `The test e-mail was sent (message id ${answer.message_id}).`, error: null });
    } catch (error) {
      setState({ busy: false, said: '', error });
    }
  }
  return (
    <div class="card">
      <h3>Try it</h3>
      <p class="muted">Sends a test e-mail with the stored settings (save first) to the default recipient.</p>
      <button type="button" class="quiet" disabled={state.busy} onClick={send}>
        {state.busy ? 'Sending…' : 'Send a test e-mail'}
      </button>
      <p role="status" class="muted">
        {state.said}
      </p>
      <ErrorNote error={state.error} title="The test e-mail was not sent." />
    </div>
  );
}

function GroupPanel({ group }: { group: Group }) {
  const answer = useResource((signal) => readGroup(group, signal), [group]);
  if (answer.error && !answer.data) return <ErrorNote error={answer.error} title={`svc could not read the ${GROUP_TITLES[group]} settings.`} />;
  if (!answer.data) return <Busy />;
  const data = answer.data;
  const saved = () => answer.reload();
  switch (group) {
    case 'ai':
      return <AiSettings answer={data} onSaved={saved} />;
    case 'embeddings':
      return <EmbeddingSettings answer={data as EmbeddingsAnswer} onSaved={saved} />;
    case 'email':
      return (
        <>
          <GroupForm group="email" answer={data} labels={LABELS.email!} onSaved={saved} />
          <div class="card">
            <h3>Mail server password</h3>
            <Password name="smtp_password" />
          </div>
          <TestEmail />
        </>
      );
    case 'cloud':
      return (
        <>
          <GroupForm group="cloud" answer={data} labels={LABELS.cloud!} onSaved={saved} />
          <div class="card">
            <h3>WebDAV password</h3>
            <Password name="cloud_password" />
          </div>
        </>
      );
    default:
      return <GroupForm group={group} answer={data} labels={LABELS[group] ?? {}} onSaved={saved} />;
  }
}

export default function Settings() {
  return (
    <>
      <header class="page-header">
        <h1>Settings</h1>
        <p class="lede">Each group is saved on its own, and only the values you change are sent. Keys and passwords are never settings: they are stored write-only.</p>
      </header>
      <Tabs tabs={GROUPS.map((g) => ({ id: g, label: GROUP_TITLES[g]! }))} label="Settings groups">
        {(current) => <GroupPanel key={current} group={current as Group} />}
      </Tabs>
    </>
  );
}
