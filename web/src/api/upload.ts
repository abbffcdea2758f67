/**
 * Send a file's bytes with upload progress: fetch cannot report how much of a
 * request body has gone, XMLHttpRequest can. Like client.ts it carries the
 * bearer token in the Authorization header (never in the URL), renews a token
 * the backend no longer takes once through the shell, and turns a refusal
 * into ApiError with the service's reason and words.
 */
import { currentSession, renewSession } from '../session.js';
import { errorFromBody, Unreachable } from './errors.js';

export interface UploadOptions {
  query: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /** Bytes sent so far and the total, as the browser reports them. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

export interface UploadAnswer<T> {
  status: number;
  body: T;
}

function once(path: string, file: Blob, options: UploadOptions): Promise<UploadAnswer<unknown> & { raw: string }> {
  const session = currentSession();
  const url = new URL(path, session.baseUrl);
  for (const [key, value] of Object.entries(options.query)) if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url.toString());
    xhr.setRequestHeader('authorization', `Bearer ${session.token}`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => options.onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body, raw: xhr.responseText } as UploadAnswer<unknown> & { raw: string });
    };
    xhr.onerror = () => reject(new Unreachable(session.baseUrl));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** POST `file` to `path`; answers the status (201 and 200 both succeed) and the parsed body, or throws ApiError. */
export async function upload<T>(path: string, file: Blob, options: UploadOptions): Promise<UploadAnswer<T>> {
  let answer = await once(path, file, options);
  if (answer.status === 401) {
    await renewSession();
    answer = await once(path, file, options);
  }
  if (answer.status < 200 || answer.status >= 300) throw errorFromBody(answer.status, answer.body);
  return { status: answer.status, body: answer.body as T };
}
