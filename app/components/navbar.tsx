import { useEffect, useRef } from "react";
import { preload } from "react-dom";
import { Link, NavLink, useLocation } from "react-router";
import { categoryLabel, categoryPath, LEBANON_CATEGORIES, CATEGORIES, type Category } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { AccountSlot } from "./account-slot";
import { ChevronDownIcon, MenuIcon } from "./icons";
import { logoUrl } from "~/lib/site-settings";
import { Logo } from "./logo";
import { useSiteFrame } from "./use-site-frame";
import { closeMenuOnEscape } from "~/islands/menu-escape";
import { SearchForm } from "./search-form";
import { usePrerendered } from "./prerendered";
import { MenuAlertBell } from "./alert-bell/alert-bell";

/** Menu links carry no class (NavLink's default would write class=""): their list (`.nav-links`,
 * `.menu-links`) styles them, the current page by aria-current. */
const byTheirList = () => undefined;

function CategoryLink({ category }: { category: Category }) {
  return (
    <NavLink discover="none" to={categoryPath(category)} className={byTheirList}>
      {categoryLabel(category)}
    </NavLink>
  );
}

function MobileMenu() {
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [location]);
  useEffect(() => closeMenuOnEscape(), []);

  return (
    <details ref={menu} className="group nav:hidden" data-mobile-menu>
      <summary className="menu-toggle" aria-label={messages.openMenu} data-testid="mobile-menu-toggle">
        <MenuIcon />
      </summary>
      <div className="menu-panel" data-testid="mobile-menu">
        <nav aria-label={messages.mobileNavigation}>
          <SearchForm id="mobile-search" className="mb-3" />
          <ul className="menu-links space-y-1">
            <li>
              <NavLink discover="none" to="/" end className={byTheirList}>
                {messages.home}
              </NavLink>
            </li>
            <li>
              <details className="group/sub">
                <summary className="menu-group">
                  {messages.lebanonNews}
                  <ChevronDownIcon className="size-4 transition-transform group-open/sub:rotate-180" />
                </summary>
                <ul className="ms-4 mt-1 space-y-1 border-s-2 border-brand-100 ps-2">
                  {LEBANON_CATEGORIES.map((category) => (
                    <li key={category}>
                      <CategoryLink category={category} />
                    </li>
                  ))}
                </ul>
              </details>
            </li>
            {(["breaking", "international", "advertisement"] as const).map((category) => (
              <li key={category}>
                <CategoryLink category={category} />
              </li>
            ))}
          </ul>
          <div className="mt-3 grid gap-3 border-t border-stone-200 pt-3">
            <MenuAlertBell />
            <AccountSlot variant="menu" />
          </div>
        </nav>
      </div>
    </details>
  );
}

const HEADER_CLASS = "relative bg-brand-600 text-white shadow";

export function Navbar() {
  const prerendered = usePrerendered();
  const site = useSiteFrame();
  if (prerendered) {
    // The logo's <img> would have had React preload it, as a page rendering the navbar does.
    preload(logoUrl(site), { as: "image" });
    return <header className={HEADER_CLASS} dangerouslySetInnerHTML={{ __html: prerendered.navbar }} />;
  }
  return (
    <header className={HEADER_CLASS}>
      <NavbarContent />
    </header>
  );
}

/** What the navbar's <header> holds; rendered on its own once per current page (shell-regions.server). */
export function NavbarContent() {
  const site = useSiteFrame();
  return (
    <>
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link discover="none" to="/" className="flex items-center gap-2" aria-label={site.name}>
          <Logo />
        </Link>
        <div className="hidden items-center gap-3 nav:flex">
          <SearchForm id="navbar-search" className="w-64" />
          <AccountSlot variant="navbar" />
        </div>
        <MobileMenu />
      </div>
      <nav aria-label={messages.mainNavigation} className="hidden bg-brand-800 nav:block">
        <ul className="nav-links mx-auto flex max-w-6xl overflow-x-auto px-4">
          <li>
            <NavLink discover="none" to="/" end className={byTheirList}>
              {messages.home}
            </NavLink>
          </li>
          {CATEGORIES.map((category) => (
            <li key={category}>
              <CategoryLink category={category} />
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}
