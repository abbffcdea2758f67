import type { Command } from 'commander';
import { assistantStatus } from '../../src/assistant/connections.js';
import { withContext } from '../lib/context.js';
import { addChatAction, addConversationCommands } from './conversations.js';
import { statusText } from './format.js';
import { emit, type Io } from '../lib/io.js';

export function register(program: Command, io: Io): void {
  const a = program.command('assistant').description('the assistant: status, and conversations bound to a connection (also `svc chat`)');
  a.command('status')
    .description('whether the assistant can run here, and every connection')
    .action(() =>
      withContext(io, (ctx) => {
        const s = assistantStatus(ctx);
        emit(io, s, () => statusText(s));
      }),
    );
  addConversationCommands(a, io);
  addChatAction(a.command('chat'), io);
}
