import { useEffect, useState } from "react";
import { SCROLL_TOP_THRESHOLD_PX } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { island } from "~/islands/island";
import { ArrowUpIcon } from "./icons";

function ScrollToTopButton() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const update = () => setVisible(window.scrollY > SCROLL_TOP_THRESHOLD_PX);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);
  if (!visible) return null;
  return (
    <button
      type="button"
      onClick={() => window.scrollTo({ top: 0 })}
      aria-label={messages.scrollToTop}
      className="fixed bottom-5 end-5 z-30 flex size-11 items-center justify-center rounded-full bg-brand-600 text-white shadow-lg hover:bg-brand-700"
    >
      <ArrowUpIcon />
    </button>
  );
}

export const ScrollToTop = island("scroll-to-top", ScrollToTopButton);
