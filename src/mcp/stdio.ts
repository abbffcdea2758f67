/**
 * The stdio transport of `svc mcp`: one JSON-RPC message a line on stdin,
 * answers on stdout, as the SDK's StdioServerTransport reads them, except that
 * a line that is not JSON is answered with JSON-RPC's parse error (-32700) and
 * one that is JSON but no JSON-RPC message with invalid request (-32600). The
 * SDK's transport only reports those to onerror, so a person or a client
 * sending one hears nothing back.
 */
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A line longer than this closes the transport, as the SDK's does (its default bound). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer = Buffer.alloc(0);
  private started = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (let end = this.buffer.indexOf('\n'); end !== -1; end = this.buffer.indexOf('\n')) {
      const line = this.buffer.toString('utf8', 0, end).replace(/\r$/, '');
      this.buffer = this.buffer.subarray(end + 1);
      this.take(line);
    }
    if (this.buffer.length > MAX_LINE_BYTES) {
      this.buffer = Buffer.alloc(0);
      this.onerror?.(new Error(`A line of more than ${MAX_LINE_BYTES} bytes came on stdin; closing.`));
      void this.close();
    }
  };

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  /** One line: a message for the server, or the JSON-RPC error that says why it is none. */
  private take(line: string): void {
    if (line.trim() === '') return; // an empty line (Enter on a terminal) says nothing
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      void this.refuse(null, PARSE_ERROR, 'Parse error: the line is not JSON. svc mcp reads one JSON-RPC 2.0 message a line (the Model Context Protocol).');
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) {
      const id = (value as { id?: unknown } | null)?.id;
      void this.refuse(typeof id === 'string' || typeof id === 'number' ? id : null, INVALID_REQUEST, 'Invalid Request: the JSON is not a JSON-RPC 2.0 message (jsonrpc "2.0" and a method, or a result or error with its id).');
      return;
    }
    this.onmessage?.(message.data);
  }

  private refuse(id: string | number | null, code: number, message: string): Promise<void> {
    // JSON-RPC 2.0 answers an unreadable request with id null; the SDK's type has no null id.
    return this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('LineStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + '\n')) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffer = Buffer.alloc(0);
    this.onclose?.();
  }
}
