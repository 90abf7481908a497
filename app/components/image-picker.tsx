import { ImagePlus, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ErrorList, fieldId } from "~/components/forms";
import { PhotoCropper } from "~/components/photo-cropper";
import { cn } from "~/lib/cn";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from "~/lib/limits";

const PHOTO_HINT = "JPG, PNG or WebP up to 5MB. Square images work best.";

/**
 * The image picker: drag and drop or click, a preview and a remove
 * button. The file travels with the form; the server decides what is accepted.
 * Without JavaScript it is a plain file input.
 */
export function ImagePicker({
  name,
  label,
  currentUrl,
  errors,
  shape = "circle",
  surface = "light",
  hint = PHOTO_HINT,
  maxBytes = MAX_IMAGE_BYTES,
  tooLarge = IMAGE_TOO_LARGE,
}: {
  name: string;
  label: string;
  currentUrl: string | null;
  errors?: string[];
  /** A photo (circle), a cover (wide, filled), a logo (wide, whole) or an icon (square, whole). */
  shape?: "circle" | "wide" | "logo" | "square";
  /** The preview's background: `dark` for an image made for dark mode. */
  surface?: "light" | "dark";
  hint?: string;
  maxBytes?: number;
  tooLarge?: string;
}) {
  const id = fieldId(name) ?? "";
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(currentUrl);
  const [removed, setRemoved] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [clientError, setClientError] = useState<string | null>(null);
  /** A chosen photo being framed: the original, whose framed square replaces the chosen file. */
  const [framing, setFraming] = useState<string | null>(null);
  const objectUrl = useRef<string | null>(null);

  useEffect(
    () => () => {
      if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    },
    [],
  );

  function choose(files: FileList | null) {
    const file = files?.[0];
    if (!file || !input.current) return;
    if (!file.type.startsWith("image/")) {
      setClientError("Please choose an image file (JPG, PNG or WebP).");
      input.current.value = "";
      return;
    }
    if (file.size > maxBytes) {
      setClientError(tooLarge);
      input.current.value = "";
      return;
    }
    if (input.current.files !== files) {
      const transfer = new DataTransfer();
      transfer.items.add(file);
      input.current.files = transfer.files;
    }
    setClientError(null);
    if (objectUrl.current) URL.revokeObjectURL(objectUrl.current);
    objectUrl.current = URL.createObjectURL(file);
    setPreview(objectUrl.current);
    setRemoved(false);
    if (shape === "circle") setFraming(objectUrl.current);
  }

  /** The framed square becomes the file the form sends, and the preview. */
  function framed(file: File, url: string) {
    if (!input.current) return;
    const transfer = new DataTransfer();
    transfer.items.add(file);
    input.current.files = transfer.files;
    setPreview(url);
  }

  const errorId = `${id}-error`;
  const labelId = `${id}-label`;
  const zoneId = `${id}-zone`;
  const whole = shape === "logo" || shape === "square";
  const allErrors = [...(clientError ? [clientError] : []), ...(errors ?? [])];
  return (
    <div>
      <span id={labelId} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </span>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <div
          className={cn(
            "flex shrink-0 items-center justify-center overflow-hidden text-slate-400",
            surface === "dark" ? "bg-slate-900 ring-1 ring-slate-700" : "bg-slate-100 dark:bg-slate-800",
            shape === "circle" && "size-24 rounded-full",
            (shape === "wide" || shape === "logo") && "h-24 w-40 rounded-xl",
            shape === "square" && "size-24 rounded-xl",
            whole && "p-3",
          )}
        >
          {preview && !removed ? (
            <img
              src={preview}
              alt={`Preview of the chosen file (${label})`}
              className={cn("size-full", whole ? "object-contain" : "object-cover")}
            />
          ) : (
            <ImagePlus aria-hidden className="size-8" />
          )}
        </div>
        <label
          id={zoneId}
          htmlFor={id}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            choose(event.dataTransfer.files);
          }}
          className={cn(
            "flex flex-1 cursor-pointer flex-col items-center justify-center rounded-xl border-2 border-dashed px-4 py-5 text-center text-sm transition",
            "focus-within:border-brand focus-within:ring-2 focus-within:ring-brand/30",
            dragging
              ? "border-brand bg-brand/5"
              : "border-slate-300 hover:border-slate-400 dark:border-slate-700 dark:hover:border-slate-500",
          )}
        >
          {/* A finger cannot drag a file: touch screens say what they do. */}
          <span className="font-medium text-brand-ink pointer-coarse:hidden">Drag and drop or click to browse</span>
          <span className="hidden font-medium text-brand-ink pointer-coarse:inline">
            {name === "photo" ? "Tap to choose a photo" : "Tap to choose an image"}
          </span>
          <span className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</span>
          <input
            ref={input}
            id={id}
            name={name}
            type="file"
            accept="image/*"
            className="sr-only"
            aria-labelledby={`${labelId} ${zoneId}`}
            aria-describedby={allErrors.length ? errorId : undefined}
            onChange={(event) => choose(event.currentTarget.files)}
          />
        </label>
      </div>
      {framing && !removed ? <PhotoCropper key={framing} src={framing} onCrop={framed} /> : null}
      {preview && !removed ? (
        <button
          type="button"
          onClick={() => {
            setRemoved(true);
            setPreview(null);
            setFraming(null);
            if (input.current) input.current.value = "";
          }}
          className="mt-2 inline-flex items-center gap-1.5 text-sm font-medium text-red-700 hover:underline dark:text-red-400"
        >
          <Trash2 aria-hidden className="size-4" />
          Remove image<span className="sr-only"> ({label})</span>
        </button>
      ) : null}
      <input type="hidden" name={`${name}Remove`} value={removed ? "1" : ""} />
      <ErrorList id={errorId} errors={allErrors} />
    </div>
  );
}
