import marks from "~/marks.svg?no-inline";

type IconProps = { className?: string };

/**
 * The networks' marks, drawn in long paths and shown twice on an article (share bar and footer):
 * one cached file (app/marks.svg) that each page points into, not the drawing repeated in the HTML.
 */
function Mark({ name, className }: { name: "facebook" | "x" | "whatsapp" | "telegram" | "instagram"; className: string }) {
  return (
    <svg className={className} aria-hidden>
      <use href={`${marks}#${name}`} />
    </svg>
  );
}

/** Stroke, fill and line ends come from the `.icon` class (app.css): not repeated on every icon. */
const base = { viewBox: "0 0 24 24", "aria-hidden": true };

export function MenuIcon({ className = "size-6" }: IconProps) {
  return (
    <svg {...base} className={`icon ${className}`}>
      <path d="M4 6h16M4 12h16M4 18h16" />
    </svg>
  );
}

export function SearchIcon({ className = "size-5" }: IconProps) {
  return (
    <svg {...base} className={`icon ${className}`}>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}

export function ChevronDownIcon({ className = "size-4" }: IconProps) {
  return (
    <svg {...base} className={`icon ${className}`}>
      <path d="m6 9 6 6 6-6" />
    </svg>
  );
}

export function ArrowUpIcon({ className = "size-5" }: IconProps) {
  return (
    <svg {...base} className={`icon ${className}`}>
      <path d="M12 19V5M5 12l7-7 7 7" />
    </svg>
  );
}

export function EyeIcon({ className = "size-4" }: IconProps) {
  return (
    <svg {...base} className={`icon ${className}`}>
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </svg>
  );
}

export function ClockIcon({ className = "size-4" }: IconProps) {
  return (
    <svg {...base} className={`icon ${className}`}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </svg>
  );
}

export function ShareIcon({ className = "size-5" }: IconProps) {
  return (
    <svg {...base} className={`icon ${className}`}>
      <circle cx="18" cy="5" r="3" />
      <circle cx="6" cy="12" r="3" />
      <circle cx="18" cy="19" r="3" />
      <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
    </svg>
  );
}

export function PlayIcon({ className = "size-5" }: IconProps) {
  return (
    <svg {...base} className={`icon fill-current ${className}`}>
      <path d="M7 4v16l13-8Z" />
    </svg>
  );
}

export function PauseIcon({ className = "size-5" }: IconProps) {
  return (
    <svg {...base} className={`icon ${className}`}>
      <path d="M8 5v14M16 5v14" />
    </svg>
  );
}

/** Points toward the reading direction's start; mirrored in RTL by the caller's rtl:rotate-180 where needed. */
export function ChevronStartIcon({ className = "size-5" }: IconProps) {
  return (
    <svg {...base} className={`icon ${className}`}>
      <path d="m9 6 6 6-6 6" />
    </svg>
  );
}

export function ChevronEndIcon({ className = "size-5" }: IconProps) {
  return (
    <svg {...base} className={`icon ${className}`}>
      <path d="m15 6-6 6 6 6" />
    </svg>
  );
}

export function FacebookIcon({ className = "size-5" }: IconProps) {
  return <Mark name="facebook" className={className} />;
}

export function XIcon({ className = "size-5" }: IconProps) {
  return <Mark name="x" className={className} />;
}

export function WhatsappIcon({ className = "size-5" }: IconProps) {
  return <Mark name="whatsapp" className={className} />;
}

export function TelegramIcon({ className = "size-5" }: IconProps) {
  return <Mark name="telegram" className={className} />;
}

export function InstagramIcon({ className = "size-5" }: IconProps) {
  return <Mark name="instagram" className={className} />;
}
