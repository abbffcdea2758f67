/**
 * The reader's performance measures, read by bench/window-reader.mjs to say
 * where the first page's wait goes: the verified bytes in hand, the PDF
 * opened by pdf.js, a page drawn, and a page's text from the service. Each
 * runs from when its step was asked for.
 */
export const PDF_BYTES_MEASURE = 'svc-reader-pdf-bytes';
export const PDF_OPEN_MEASURE = 'svc-reader-pdf-open';
export const DRAW_MEASURE = 'svc-reader-draw';
export const TEXT_MEASURE = 'svc-reader-text';

export function measureSince(name: string, start: number): void {
  performance.measure(name, { start, end: performance.now() });
}
