import { Move } from "lucide-react";
import { type KeyboardEvent, type PointerEvent, useEffect, useId, useRef, useState } from "react";

/** The square the photo is framed in, in CSS pixels. */
const VIEW = 224;
const MAX_ZOOM = 4;
/** The longest side of the square sent: the server makes its own sizes from it. */
const MAX_OUTPUT = 1024;
const STEP = 8;

type Frame = { zoom: number; x: number; y: number };

/** How far the photo may move from the middle at `zoom` so that it still covers the square. */
function limits(natural: { width: number; height: number }, zoom: number) {
  const scale = (VIEW / Math.min(natural.width, natural.height)) * zoom;
  return {
    scale,
    width: natural.width * scale,
    height: natural.height * scale,
    x: (natural.width * scale - VIEW) / 2,
    y: (natural.height * scale - VIEW) / 2,
  };
}

const describe = (frame: Frame) => `${frame.zoom.toFixed(2)} ${Math.round(frame.x)} ${Math.round(frame.y)}`;

const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, value));

/**
 * Frames a chosen photo in the circle its card shows: drag it (or use the
 * arrow keys) to move it, the slider (or + and −) to zoom. Each change is
 * drawn into a square JPEG that replaces the chosen file, so what the form
 * sends is what the circle showed; until then the server's own middle square
 * stands in.
 */
export function PhotoCropper({ src, onCrop }: { src: string; onCrop: (file: File, url: string) => void }) {
  const hintId = useId();
  const zoomId = useId();
  const image = useRef<HTMLImageElement>(null);
  const drag = useRef<{ pointer: number; x: number; y: number; from: Frame } | null>(null);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [frame, setFrame] = useState<Frame>({ zoom: 1, x: 0, y: 0 });
  /** The frame the file the form sends was drawn from (a page's tests wait for it). */
  const [drawn, setDrawn] = useState("");
  const made = useRef<string | null>(null);
  /** Which drawing is the newest: one that finishes after a newer one started is dropped. */
  const drawing = useRef(0);
  const latest = useRef(onCrop);
  latest.current = onCrop;

  const place = (next: Frame) => {
    if (!natural) return;
    const zoom = Math.max(1, Math.min(MAX_ZOOM, next.zoom));
    const bounds = limits(natural, zoom);
    setFrame({ zoom, x: clamp(next.x, bounds.x), y: clamp(next.y, bounds.y) });
  };

  // Draws the framed square a moment after the last change, and hands it to the form.
  useEffect(() => {
    if (!natural || !image.current) return;
    const source = image.current;
    const timer = setTimeout(() => {
      const run = ++drawing.current;
      const bounds = limits(natural, frame.zoom);
      const left = VIEW / 2 - bounds.width / 2 + frame.x;
      const top = VIEW / 2 - bounds.height / 2 + frame.y;
      const side = VIEW / bounds.scale;
      const output = Math.max(64, Math.min(MAX_OUTPUT, Math.round(side)));
      const canvas = document.createElement("canvas");
      canvas.width = output;
      canvas.height = output;
      const context = canvas.getContext("2d");
      if (!context) return;
      // A transparent photo on white, as the card shows it, not on JPEG's black.
      context.fillStyle = "#ffffff";
      context.fillRect(0, 0, output, output);
      context.drawImage(source, -left / bounds.scale, -top / bounds.scale, side, side, 0, 0, output, output);
      canvas.toBlob(
        (blob) => {
          if (!blob || run !== drawing.current) return;
          if (made.current) URL.revokeObjectURL(made.current);
          made.current = URL.createObjectURL(blob);
          latest.current(new File([blob], "photo.jpg", { type: "image/jpeg" }), made.current);
          setDrawn(describe(frame));
        },
        "image/jpeg",
        0.9,
      );
    }, 120);
    return () => clearTimeout(timer);
  }, [natural, frame]);

  useEffect(
    () => () => {
      // A drawing still under way when the frame goes (the image removed) must not put its file back.
      drawing.current++;
      if (made.current) URL.revokeObjectURL(made.current);
    },
    [],
  );

  const bounds = natural ? limits(natural, frame.zoom) : null;

  function onKeyDown(event: KeyboardEvent) {
    const step = event.shiftKey ? STEP * 4 : STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (move) place({ ...frame, x: frame.x + move[0], y: frame.y + move[1] });
    else if (event.key === "+" || event.key === "=") place({ ...frame, zoom: frame.zoom + 0.1 });
    else if (event.key === "-") place({ ...frame, zoom: frame.zoom - 0.1 });
    else return;
    event.preventDefault();
  }

  function onPointerDown(event: PointerEvent<HTMLButtonElement>) {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointer: event.pointerId, x: event.clientX, y: event.clientY, from: frame };
  }

  function onPointerMove(event: PointerEvent<HTMLButtonElement>) {
    const start = drag.current;
    if (!start || start.pointer !== event.pointerId) return;
    place({ ...start.from, x: start.from.x + event.clientX - start.x, y: start.from.y + event.clientY - start.y });
  }

  return (
    <div className="mt-3 space-y-3 rounded-xl border border-slate-200 p-3 dark:border-slate-700">
      <p id={hintId} className="flex items-center gap-1.5 text-sm text-slate-600 dark:text-slate-400">
        <Move aria-hidden className="size-4 shrink-0" />
        Drag the photo, or use the arrow keys, to choose what shows in the circle; + and − zoom.
      </p>
      {/* A button, so that it takes the keyboard's focus: the arrow keys move the photo, as dragging does. */}
      <button
        type="button"
        aria-label="Photo position"
        aria-describedby={hintId}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => {
          drag.current = null;
        }}
        onPointerCancel={() => {
          drag.current = null;
        }}
        className="relative mx-auto block cursor-move touch-none overflow-hidden rounded-xl bg-slate-100 outline-none select-none focus-visible:ring-2 focus-visible:ring-brand dark:bg-slate-800"
        style={{ width: VIEW, height: VIEW }}
        data-testid="photo-frame"
        data-frame={describe(frame)}
        data-drawn={drawn}
      >
        <img
          ref={image}
          src={src}
          alt=""
          draggable={false}
          onLoad={(event) =>
            setNatural({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })
          }
          className="pointer-events-none absolute max-w-none"
          style={
            bounds
              ? {
                  width: bounds.width,
                  height: bounds.height,
                  left: VIEW / 2 - bounds.width / 2 + frame.x,
                  top: VIEW / 2 - bounds.height / 2 + frame.y,
                }
              : { opacity: 0 }
          }
        />
        {/* The circle the card shows, the rest dimmed. */}
        <span
          aria-hidden
          className="pointer-events-none absolute inset-0 rounded-full shadow-[0_0_0_999px_rgb(15_23_42/0.55)]"
        />
      </button>
      <div className="mx-auto flex max-w-56 items-center gap-3">
        <label htmlFor={zoomId} className="text-sm font-medium text-slate-700 dark:text-slate-300">
          Zoom
        </label>
        <input
          id={zoomId}
          type="range"
          min={1}
          max={MAX_ZOOM}
          step={0.05}
          value={frame.zoom}
          aria-valuetext={`${Math.round(frame.zoom * 100)}%`}
          onChange={(event) => place({ ...frame, zoom: Number(event.target.value) })}
          className="flex-1 accent-[var(--color-brand)]"
        />
      </div>
    </div>
  );
}
