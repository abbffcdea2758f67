import type { Command } from 'commander';
import { assistantStatus } from '../src/assistant/connections.js';
import { withContext } from './lib/context.js';
import { addChatAction, addConversationCommands } from './lib/conversations.js';
import { emit, table, type Io } from './lib/io.js';

export function register(program: Command, io: Io): void {
  const a = program.command('assistant').description('the assistant: status, and conversations bound to a connection (also `svc chat`)');
  a.command('status')
    .description('whether the assistant can run here, and every connection')
    .action(() =>
      withContext(io, (ctx) => {
        const s = assistantStatus(ctx);
        emit(io, s, () => {
          const rows = s.composer_choices.connections.map((c) => [c.runtime, c.provider, c.available ? 'yes' : 'no', c.reason ?? '']);
          return [s.can_run ? 'The assistant can run.' : `The assistant cannot run: ${s.reason}`, '', table([['RUNTIME', 'PROVIDER', 'AVAILABLE', 'WHY NOT'], ...rows])].join('\n');
        });
      }),
    );
  addConversationCommands(a, io);
  addChatAction(a.command('chat'), io);
}
