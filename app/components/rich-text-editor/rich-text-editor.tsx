import { EditorContent, useEditor, type Editor } from "@tiptap/react";
import { useMemo, useState } from "react";
import { errorOf } from "~/lib/error-body";
import { editorMessages, mediaLibraryMessages } from "~/lib/newsroom-messages";
import { isSafeHref, withoutTrailingEmptyParagraphs, type RichDocument } from "~/lib/rich-text/document";
import { embedFromUrl } from "~/lib/rich-text/embeds";
import { articleExtensions } from "./extensions";
import { stylesAsStructure } from "./pasted-html";
import { MediaPicker } from "../media-picker";

export type RichTextEditorProps = {
  labelId: string;
  describedBy?: string;
  invalid: boolean;
  defaultValue: RichDocument;
  onChange: (document: RichDocument) => void;
};

type Panel = "link" | "image" | "embed" | null;

/**
 * The right-to-left editor (Tiptap, decision 021): an Arabic toolbar whose buttons say whether they
 * apply where the cursor is, keyboard shortcuts, and small panels for links, images and embeds. Loaded
 * only where a rich text is written (rich-text-field.tsx imports it lazily).
 */
export default function RichTextEditor({ labelId, describedBy, invalid, defaultValue, onChange }: RichTextEditorProps) {
  const [panel, setPanel] = useState<Panel>(null);
  const extensions = useMemo(() => articleExtensions({ onLinkShortcut: () => setPanel("link") }), []);
  const editor = useEditor({
    extensions,
    content: defaultValue,
    injectCSS: false,
    shouldRerenderOnTransaction: true,
    editorProps: {
      transformPastedHTML: stylesAsStructure,
      attributes: {
        dir: "rtl",
        class: "rich-text editor-body",
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(invalid ? { "aria-invalid": "true" } : {}),
        "data-testid": "body-editor",
      },
    },
    onUpdate: ({ editor }) => onChange(withoutTrailingEmptyParagraphs(editor.getJSON() as RichDocument)),
  });
  if (!editor) return null;
  // The text takes the focus back as the panel goes, in the same event: Tiptap's focus command waits for
  // the next frame, and keys pressed before it (a fast typist, a busy device) would reach the page instead.
  const closePanel = () => {
    editor.view.focus();
    setPanel(null);
  };
  return (
    <div className="rounded border border-stone-300 bg-white" data-editor-ready="">
      <Toolbar editor={editor} panel={panel} setPanel={setPanel} />
      {panel === "link" && <LinkPanel editor={editor} close={closePanel} />}
      {panel === "image" && <ImagePanel editor={editor} close={closePanel} />}
      {panel === "embed" && <EmbedPanel editor={editor} close={closePanel} />}
      <EditorContent editor={editor} />
    </div>
  );
}

type ToolProps = {
  label: string;
  shortcut?: string;
  pressed?: boolean;
  onClick: () => void;
  children: React.ReactNode;
};

function Tool({ label, shortcut, pressed, onClick, children }: ToolProps) {
  return (
    <button
      type="button"
      aria-label={label}
      title={shortcut ? `${label} (${shortcut})` : label}
      aria-pressed={pressed}
      // Keeps the text's selection: the command applies where the cursor is.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className="min-h-9 min-w-9 rounded px-2 text-sm hover:bg-stone-100 aria-pressed:bg-brand-600 aria-pressed:text-white"
    >
      {children}
    </button>
  );
}

function Toolbar({ editor, panel, setPanel }: { editor: Editor; panel: Panel; setPanel: (panel: Panel) => void }) {
  const chain = () => editor.chain().focus();
  const toggle = (which: Exclude<Panel, null>) => setPanel(panel === which ? null : which);
  return (
    <div
      role="toolbar"
      aria-label={editorMessages.toolbar}
      className="flex flex-wrap gap-1 border-b border-stone-200 p-1"
    >
      <Tool
        label={editorMessages.paragraph}
        shortcut="Ctrl+Alt+0"
        pressed={editor.isActive("paragraph")}
        onClick={() => chain().setParagraph().run()}
      >
        ¶
      </Tool>
      <Tool
        label={editorMessages.heading2}
        shortcut="Ctrl+Alt+2"
        pressed={editor.isActive("heading", { level: 2 })}
        onClick={() => chain().toggleHeading({ level: 2 }).run()}
      >
        {editorMessages.heading2}
      </Tool>
      <Tool
        label={editorMessages.heading3}
        shortcut="Ctrl+Alt+3"
        pressed={editor.isActive("heading", { level: 3 })}
        onClick={() => chain().toggleHeading({ level: 3 }).run()}
      >
        {editorMessages.heading3}
      </Tool>
      <Tool
        label={editorMessages.bold}
        shortcut="Ctrl+B"
        pressed={editor.isActive("bold")}
        onClick={() => chain().toggleBold().run()}
      >
        <strong>{editorMessages.bold}</strong>
      </Tool>
      <Tool
        label={editorMessages.italic}
        shortcut="Ctrl+I"
        pressed={editor.isActive("italic")}
        onClick={() => chain().toggleItalic().run()}
      >
        <em>{editorMessages.italic}</em>
      </Tool>
      <Tool
        label={editorMessages.link}
        shortcut="Ctrl+K"
        pressed={editor.isActive("link")}
        onClick={() => toggle("link")}
      >
        {editorMessages.link}
      </Tool>
      <Tool
        label={editorMessages.quote}
        shortcut="Ctrl+Shift+B"
        pressed={editor.isActive("blockquote")}
        onClick={() => chain().toggleBlockquote().run()}
      >
        {editorMessages.quote}
      </Tool>
      <Tool
        label={editorMessages.bulletList}
        shortcut="Ctrl+Shift+8"
        pressed={editor.isActive("bulletList")}
        onClick={() => chain().toggleBulletList().run()}
      >
        {editorMessages.bulletList}
      </Tool>
      <Tool
        label={editorMessages.orderedList}
        shortcut="Ctrl+Shift+7"
        pressed={editor.isActive("orderedList")}
        onClick={() => chain().toggleOrderedList().run()}
      >
        {editorMessages.orderedList}
      </Tool>
      <Tool label={editorMessages.image} pressed={panel === "image"} onClick={() => toggle("image")}>
        {editorMessages.image}
      </Tool>
      <Tool label={editorMessages.embed} pressed={panel === "embed"} onClick={() => toggle("embed")}>
        {editorMessages.embed}
      </Tool>
      <Tool label={editorMessages.undo} shortcut="Ctrl+Z" onClick={() => chain().undo().run()}>
        ↶
      </Tool>
      <Tool label={editorMessages.redo} shortcut="Ctrl+Shift+Z" onClick={() => chain().redo().run()}>
        ↷
      </Tool>
    </div>
  );
}

const panelClass = "flex flex-wrap items-end gap-2 border-b border-stone-200 bg-stone-50 p-2";
const fieldClass = "rounded border border-stone-300 bg-white px-2 py-1";
const primary = "rounded bg-brand-600 px-3 py-1 font-bold text-white hover:bg-brand-700 disabled:opacity-60";
const secondary = "rounded border border-stone-300 bg-white px-3 py-1 hover:bg-stone-100";

/** Enter in a panel's field applies it, and never submits the article's form around it. */
function onEnter(apply: () => void) {
  return (event: React.KeyboardEvent) => {
    if (event.key === "Enter") {
      event.preventDefault();
      apply();
    } else if (event.key === "Escape") {
      event.preventDefault();
    }
  };
}

function PanelError({ id, message }: { id: string; message: string | null }) {
  return message ? (
    <p id={id} role="alert" className="basis-full text-sm font-bold text-brand-700">
      {message}
    </p>
  ) : null;
}

function LinkPanel({ editor, close }: { editor: Editor; close: () => void }) {
  const [href, setHref] = useState(() => (editor.getAttributes("link").href as string | undefined) ?? "");
  const [error, setError] = useState<string | null>(null);
  const apply = () => {
    const url = href.trim();
    if (!isSafeHref(url)) return setError(editorMessages.linkUnsafe);
    const link = { type: "link", attrs: { href: url } };
    if (editor.state.selection.empty && !editor.isActive("link"))
      editor
        .chain()
        .focus()
        .insertContent({ type: "text", text: url, marks: [link] })
        .run();
    else editor.chain().focus().extendMarkRange("link").setLink({ href: url }).run();
    close();
  };
  return (
    <div className={panelClass} data-testid="link-panel">
      <label className="flex grow flex-col gap-1 text-sm">
        <span className="font-bold">{editorMessages.linkPrompt}</span>
        <input
          autoFocus
          dir="ltr"
          type="url"
          value={href}
          onChange={(event) => setHref(event.target.value)}
          onKeyDown={onEnter(apply)}
          className={fieldClass}
          aria-describedby={error ? "link-panel-error" : undefined}
        />
      </label>
      <button type="button" onClick={apply} className={primary}>
        {editorMessages.apply}
      </button>
      {editor.isActive("link") && (
        <button
          type="button"
          onClick={() => (editor.chain().focus().extendMarkRange("link").unsetLink().run(), close())}
          className={secondary}
        >
          {editorMessages.linkRemove}
        </button>
      )}
      <button type="button" onClick={close} className={secondary}>
        {editorMessages.cancel}
      </button>
      <PanelError id="link-panel-error" message={error} />
    </div>
  );
}

function EmbedPanel({ editor, close }: { editor: Editor; close: () => void }) {
  const [link, setLink] = useState("");
  const [error, setError] = useState<string | null>(null);
  const apply = () => {
    const attrs = embedFromUrl(link);
    if (!attrs) return setError(editorMessages.embedUnsupported);
    editor
      .chain()
      .focus()
      .insertContent([{ type: "embed", attrs }, { type: "paragraph" }])
      .run();
    close();
  };
  return (
    <div className={panelClass} data-testid="embed-panel">
      <label className="flex grow flex-col gap-1 text-sm">
        <span className="font-bold">{editorMessages.embedPrompt}</span>
        <input
          autoFocus
          dir="ltr"
          type="url"
          value={link}
          onChange={(event) => setLink(event.target.value)}
          onKeyDown={onEnter(apply)}
          className={fieldClass}
        />
      </label>
      <button type="button" onClick={apply} className={primary}>
        {editorMessages.apply}
      </button>
      <button type="button" onClick={close} className={secondary}>
        {editorMessages.cancel}
      </button>
      <PanelError id="embed-panel-error" message={error} />
    </div>
  );
}

/** Uploads one image (the same storage and variants as the article's images), or takes one from the media library, and places it at the cursor. */
function ImagePanel({ editor, close }: { editor: Editor; close: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [details, setDetails] = useState({ alt: "", caption: "", credit: "" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const apply = async () => {
    if (!file || busy) return;
    setBusy(true);
    setError(null);
    try {
      const body = new FormData();
      body.set("image", file);
      const response = await fetch("/api/media/images", {
        method: "POST",
        body,
        headers: { Accept: "application/json" },
      });
      const json = (await response.json().catch(() => null)) as { url?: string } | null;
      if (!response.ok || !json?.url) {
        const refusal = errorOf(json);
        setError(refusal?.fields?.image ?? refusal?.message ?? editorMessages.imageUploadFailed);
        return;
      }
      // A paragraph after the image, so writing goes on below it.
      editor
        .chain()
        .focus()
        .insertContent([{ type: "figure", attrs: { src: json.url, ...details } }, { type: "paragraph" }])
        .run();
      close();
    } catch {
      setError(editorMessages.imageUploadFailed);
    } finally {
      setBusy(false);
    }
  };
  const detail = (name: keyof typeof details, label: string) => (
    <label className="flex grow flex-col gap-1 text-sm">
      <span className="font-bold">{label}</span>
      <input
        value={details[name]}
        maxLength={500}
        onChange={(event) => setDetails({ ...details, [name]: event.target.value })}
        onKeyDown={onEnter(apply)}
        className={fieldClass}
        data-image-field={name}
      />
    </label>
  );
  return (
    <div className={panelClass} data-testid="image-panel" aria-busy={busy}>
      <label className="flex basis-full flex-col gap-1 text-sm">
        <span className="font-bold">{editorMessages.imageFile}</span>
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          className={fieldClass}
          data-image-field="file"
        />
      </label>
      <div className="basis-full">
        <MediaPicker
          testId="body-media-picker"
          actions={[
            {
              label: mediaLibraryMessages.insert,
              pick: (image) => {
                editor
                  .chain()
                  .focus()
                  .insertContent([
                    {
                      type: "figure",
                      attrs: { src: image.url, alt: image.alt, caption: image.caption, credit: image.credit },
                    },
                    { type: "paragraph" },
                  ])
                  .run();
                close();
              },
            },
          ]}
        />
      </div>
      {detail("caption", editorMessages.imageCaption)}
      {detail("credit", editorMessages.imageCreditField)}
      {detail("alt", editorMessages.imageAlt)}
      <button type="button" onClick={apply} disabled={!file || busy} className={primary}>
        {busy ? editorMessages.imageUploading : editorMessages.imageInsert}
      </button>
      <button type="button" onClick={close} className={secondary}>
        {editorMessages.cancel}
      </button>
      <PanelError id="image-panel-error" message={error} />
    </div>
  );
}
