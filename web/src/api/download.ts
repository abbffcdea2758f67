/**
 * Downloads without the token in a URL: the file is fetched with the
 * Authorization header, held as a Blob, and saved through an object URL that
 * lives only for the click.
 */
import { request, type RequestOptions } from './client.js';

/** The file name the backend gives in Content-Disposition, else `fallback`. */
function fileName(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]!);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain ? plain[1]! : fallback;
}

/** Fetch `path` and hand it to the browser as a saved file. */
export async function download(method: 'GET' | 'POST', path: string, fallbackName: string, options: RequestOptions = {}): Promise<string> {
  const response = await request<Response>(method, path, { ...options, raw: true });
  const name = fileName(response, fallbackName);
  save(await response.blob(), name);
  return name;
}

/** Save text the backend answered inside JSON (an export envelope's filename, content type and text) as a file. */
export function saveText(name: string, contentType: string, text: string): void {
  save(new Blob([text], { type: contentType }), name);
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
