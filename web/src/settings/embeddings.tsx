/** The embeddings group with its capability metadata: the active lane, and what each lane is, costs and needs. */
import type { EmbeddingsAnswer } from '../api/settings.js';
import { GroupForm } from './group-form.js';
import { LABELS } from './labels.js';

export function EmbeddingSettings({ answer, onSaved }: { answer: EmbeddingsAnswer; onSaved: () => void }) {
  const { active, providers, cannot_embed } = answer.capabilities;
  return (
    <>
      <div class="note">
        <p>
          <strong>In use:</strong> {active.provider === 'none' ? 'similarity is off' : `${active.provider} / ${active.model ?? 'default model'}`} {active.kind && <span class="chip">{active.semantic ? 'semantic' : active.kind}</span>}
        </p>
        {active.note && <p class="muted">{active.note}</p>}
      </div>
      <GroupForm group="embeddings" answer={answer} labels={LABELS.embeddings!} choices={{ provider: providers.map((p) => ({ value: p.id, label: p.label })) }} onSaved={onSaved} />
      <section class="card" aria-labelledby="lanes">
        <h3 id="lanes">Lanes</h3>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Lane</th>
                <th scope="col">Kind</th>
                <th scope="col">Default model</th>
                <th scope="col">Price per million tokens</th>
                <th scope="col">Key</th>
              </tr>
            </thead>
            <tbody>
              {providers.map((p) => (
                <tr key={p.id}>
                  <th scope="row">
                    {p.label}
                    <p class="cell-note">{p.note}</p>
                  </th>
                  <td>
                    {p.kind ?? '—'}
                    {p.offline && ', offline'}
                  </td>
                  <td>{p.default_model ?? '—'}</td>
                  <td>
                    {Object.keys(p.prices_per_million_tokens).length
                      ? Object.entries(p.prices_per_million_tokens)
                          .map(([m, price]) => `${m}: ${price === 0 ? 'free' : `$${price}`}`)
                          .join('; ')
                      : '—'}
                  </td>
                  <td>{p.credential ? `${p.credential} (${p.credential_status === 'present' ? 'stored' : 'not stored'})` : 'none needed'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {cannot_embed.length > 0 && <p class="muted">These providers cannot embed and are refused here: {cannot_embed.join(', ')}.</p>}
      </section>
    </>
  );
}
