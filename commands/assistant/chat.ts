import type { Command } from 'commander';
import { addChatAction, addConversationCommands } from './conversations.js';
import type { Io } from '../lib/io.js';

/** `svc chat [id]`: talk with the assistant; `svc chat new|list|show|export|delete` manage conversations. */
export function register(program: Command, io: Io): void {
  const chat = addChatAction(program.command('chat'), io, false);
  addConversationCommands(chat, io);
}
