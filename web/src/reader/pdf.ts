/**
 * pdf.js in the browser, for viewing only: it draws a page of the verified
 * bytes onto the reader's one canvas. It never extracts text — the text pane
 * shows the service's pinned extraction, the one every anchor names. Spec 2's
 * display rules: one canvas of at most 4 million pixels and 16 MiB, a local
 * worker (a file of this origin, worker-src 'self'), a 20 s render timeout.
 * Loaded only by the reader, so `/` never fetches it.
 */
import { getDocument, GlobalWorkerOptions, PDFWorker, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';

declare const __PDF_WORKER_URL__: string;
declare const __PDF_WASM_URL__: string;

GlobalWorkerOptions.workerSrc = __PDF_WORKER_URL__;

export const MAX_CANVAS_PIXELS = 4_000_000;
export const MAX_CANVAS_BYTES = 16 * 1024 * 1024;
export const RENDER_TIMEOUT_MS = 20_000;

export type PdfDocument = PDFDocumentProxy;
export type { PDFWorker };

/**
 * pdf.js's worker, started before the bytes arrive: fetching and compiling
 * its 1.2 MB script then overlaps the download of the verified bytes instead
 * of following it. The caller destroys it after the document.
 */
export function startWorker(): PDFWorker {
  return new PDFWorker();
}

export function openPdf(bytes: ArrayBuffer, worker: PDFWorker): Promise<PdfDocument> {
  return getDocument({
    data: new Uint8Array(bytes),
    worker,
    // No eval (the CSP forbids it anyway), no XFA forms, no scripting: a page is drawn, nothing runs.
    isEvalSupported: false,
    enableXfa: false,
    wasmUrl: __PDF_WASM_URL__,
    canvasMaxAreaInBytes: MAX_CANVAS_BYTES,
    verbosity: 0,
  }).promise;
}

export interface Drawn {
  /** The scale the page was drawn at, after the canvas cap. */
  scale: number;
  /** Whether the cap lowered the scale asked for. */
  capped: boolean;
  cssWidth: number;
  cssHeight: number;
}

export class RenderTimeout extends Error {
  constructor() {
    super(`The page took longer than ${RENDER_TIMEOUT_MS / 1000} s to draw and was stopped.`);
  }
}

/**
 * Draw `pageNumber` on `canvas` at `cssWidth` CSS pixels wide (times the
 * screen's pixel ratio), lowering the scale so the canvas stays within
 * 4 million pixels (4 bytes each: 16 MiB). `signal` cancels it (a newer page turn).
 */
export async function drawPage(doc: PdfDocument, pageNumber: number, canvas: HTMLCanvasElement, cssWidth: number, signal: AbortSignal): Promise<Drawn> {
  const page = await doc.getPage(pageNumber);
  const base = page.getViewport({ scale: 1 });
  const ratio = window.devicePixelRatio || 1;
  const wanted = (cssWidth / base.width) * ratio;
  const cap = Math.sqrt(Math.min(MAX_CANVAS_PIXELS, MAX_CANVAS_BYTES / 4) / (base.width * base.height));
  const scale = Math.min(wanted, cap);
  const viewport = page.getViewport({ scale });
  if (signal.aborted) throw new DOMException('superseded', 'AbortError');
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  const cssHeight = (cssWidth * base.height) / base.width;
  canvas.style.width = `${cssWidth}px`;
  canvas.style.height = `${cssHeight}px`;
  const task: RenderTask = page.render({ canvas, viewport });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => task.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([
      task.promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          task.cancel();
          reject(new RenderTimeout());
        }, RENDER_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    if (signal.aborted) throw new DOMException('superseded', 'AbortError');
    throw err;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    page.cleanup();
  }
  return { scale, capped: scale < wanted, cssWidth, cssHeight };
}
