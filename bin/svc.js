#!/usr/bin/env node
// Tiny launcher: everything lives in the compiled CLI entry. Only this file exits the process.
import { runCli, processIo } from '../dist/commands/main.js';

const code = await runCli(process.argv.slice(2), processIo());
process.stdout.write('', () => process.exit(code));
