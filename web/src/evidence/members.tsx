/**
 * A project's files: each the exact version it was added as, shown by its
 * short SHA-256 (different bytes are a different Library file, so a member is
 * never swapped for another version), with a link to read it and a button
 * that removes the membership only (the file, its links and its notes stay).
 */
import { useState } from 'preact/hooks';
import type { Member, Project } from '../api/evidence.js';
import { shortHash } from '../api/library.js';
import { bytes, minute } from '../ui/format.js';
import { EmptyState } from '../ui/notes.js';

export const readerHref = (projectId: string, fileId: string, page?: number) => `/evidence/${projectId}/files/${fileId}${page ? `?page=${page}` : ''}`;

export function Members({ project, members, onRemove }: { project: Project; members: Member[]; onRemove: (m: Member) => Promise<void> }) {
  const [busy, setBusy] = useState<string | null>(null);
  if (members.length === 0) {
    return (
      <EmptyState title="This project holds no file yet.">
        <p>Add Library files below (or import them in the <a href="/library">Library</a> first).</p>
      </EmptyState>
    );
  }
  return (
    <div class="table-wrap">
      <table class="members-table">
        <caption class="visually-hidden">Files of {project.name}</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Version (SHA-256)</th>
            <th scope="col">Kind</th>
            <th scope="col">Added</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.member_id} data-member={m.original_name}>
              <td>
                <a href={readerHref(project.project_id, m.file_id)}>{m.original_name}</a>
              </td>
              <td>
                <code title={`SHA-256 ${m.sha256}, version ${m.version_id}`}>{shortHash(m.sha256)}</code>
              </td>
              <td>
                {m.format.toUpperCase()}, {bytes(m.byte_size)}
              </td>
              <td>
                <time dateTime={m.added_at_utc}>{minute(m.added_at_utc)}</time>
              </td>
              <td>
                <button
                  type="button"
                  class="quiet"
                  disabled={busy === m.file_id}
                  aria-label={`Remove ${m.original_name} from the project`}
                  onClick={async () => {
                    setBusy(m.file_id);
                    await onRemove(m);
                    setBusy(null);
                  }}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
