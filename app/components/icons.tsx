import sprite from "~/icons.svg?no-inline";

type IconProps = { className?: string };

type IconName =
  | "menu"
  | "search"
  | "chevrondown"
  | "arrowup"
  | "eye"
  | "clock"
  | "share"
  | "play"
  | "pause"
  | "chevronstart"
  | "chevronend"
  | "facebook"
  | "x"
  | "whatsapp"
  | "telegram"
  | "instagram"
  | "bell";

/**
 * Every icon is a symbol of one cached file (app/icons.svg) that the page points into: the drawing
 * is not repeated in the HTML of every page, nor twice on one (share bar and footer).
 */
function Icon({ name, className }: { name: IconName; className: string }) {
  return (
    <svg className={className} aria-hidden>
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}

export function MenuIcon({ className = "size-6" }: IconProps) {
  return <Icon name="menu" className={className} />;
}

export function SearchIcon({ className = "size-5" }: IconProps) {
  return <Icon name="search" className={className} />;
}

export function ChevronDownIcon({ className = "size-4" }: IconProps) {
  return <Icon name="chevrondown" className={className} />;
}

export function ArrowUpIcon({ className = "size-5" }: IconProps) {
  return <Icon name="arrowup" className={className} />;
}

export function EyeIcon({ className = "size-4" }: IconProps) {
  return <Icon name="eye" className={className} />;
}

export function ClockIcon({ className = "size-4" }: IconProps) {
  return <Icon name="clock" className={className} />;
}

export function ShareIcon({ className = "size-5" }: IconProps) {
  return <Icon name="share" className={className} />;
}

export function PlayIcon({ className = "size-5" }: IconProps) {
  return <Icon name="play" className={className} />;
}

export function PauseIcon({ className = "size-5" }: IconProps) {
  return <Icon name="pause" className={className} />;
}

/** Points toward the reading direction's start; mirrored in RTL by the caller's rtl:rotate-180 where needed. */
export function ChevronStartIcon({ className = "size-5" }: IconProps) {
  return <Icon name="chevronstart" className={className} />;
}

export function ChevronEndIcon({ className = "size-5" }: IconProps) {
  return <Icon name="chevronend" className={className} />;
}

export function FacebookIcon({ className = "size-5" }: IconProps) {
  return <Icon name="facebook" className={className} />;
}

export function XIcon({ className = "size-5" }: IconProps) {
  return <Icon name="x" className={className} />;
}

export function WhatsappIcon({ className = "size-5" }: IconProps) {
  return <Icon name="whatsapp" className={className} />;
}

export function TelegramIcon({ className = "size-5" }: IconProps) {
  return <Icon name="telegram" className={className} />;
}

export function InstagramIcon({ className = "size-5" }: IconProps) {
  return <Icon name="instagram" className={className} />;
}

export function BellIcon({ className = "size-5" }: IconProps) {
  return <Icon name="bell" className={className} />;
}
