/** A tab without a session: how to get in. The token is never in a link, so a pasted link cannot carry one. */
export function NoSession({ refusal }: { refusal?: { reason: string; message: string } | null }) {
  const used = refusal?.reason === 'launch_code_used';
  return (
    <main class="no-session" id="main">
      <h1>svc</h1>
      {refusal && (
        <div class="note note-error" role="alert">
          <p>{used ? 'This launch link has already been used: each one opens a single tab.' : refusal.message}</p>
        </div>
      )}
      <p>This tab has no session with svc. To open the window:</p>
      <ul>
        <li>
          run <code>svc window</code> in a terminal: it opens a tab that has a session;
        </li>
        <li>
          or, in a tab that has a session, use <strong>Open in new tab</strong>: each new tab gets its own one-time link.
        </li>
      </ul>
    </main>
  );
}
