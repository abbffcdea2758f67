/**
 * The drawn page: pdf.js paints the PDF page onto one canvas, as wide as its
 * pane (times the zoom), capped by the display rules. Drawing is for viewing
 * only; notes are made in the text pane. A newer page turn cancels a drawing
 * still under way.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote } from '../ui/notes.js';
import type { PdfDocument } from './pdf.js';
import { DRAW_MEASURE, measureSince } from './timing.js';

type PdfModule = typeof import('./pdf.js');

export interface DrawnPageProps {
  doc: PdfDocument | undefined;
  pdf: PdfModule | undefined;
  page: number;
  zoom: number;
  /** Called once the page is on the canvas (or could not be drawn): the reader's "page shown". */
  onDone: (page: number) => void;
}

export function DrawnPage({ doc, pdf, page, zoom, onDone }: DrawnPageProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [capped, setCapped] = useState(false);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    // The box's width inside its padding: the canvas fits it without a sideways scroll at "Fit width".
    const measure = () => {
      const style = getComputedStyle(el);
      setWidth(Math.max(200, Math.floor(el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)) - 2));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!doc || !pdf || !canvas.current || width === 0) return;
    const controller = new AbortController();
    setError(null);
    const started = performance.now();
    pdf.drawPage(doc, page, canvas.current, Math.round(width * zoom), controller.signal).then(
      (drawn) => {
        measureSince(DRAW_MEASURE, started);
        setCapped(drawn.capped);
        onDone(page);
      },
      (err) => {
        if ((err as Error)?.name === 'AbortError') return;
        setError(err);
        onDone(page);
      },
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [doc, pdf, page, width, zoom]);

  return (
    <div class="drawn-page" ref={box}>
      <ErrorNote error={error} title={`Page ${page} could not be drawn.`} />
      {capped && <p class="muted drawn-capped">Drawn at a lower resolution: at this zoom the page would be over the reader’s 4 million pixel canvas.</p>}
      <canvas ref={canvas} class="drawn-canvas" role="img" aria-label={`Page ${page} of the PDF, drawn`} />
    </div>
  );
}
