import { pushMessages as m } from "~/lib/newsroom-messages";

/**
 * The editor's "إرسال تنبيه" (decision 037): the story's Web Push alert when it is published, or a live
 * update's (its own `label` and `hint`). Past the site's alerts per hour the server refuses with its
 * reason on this field, and the form asks again with a confirmation to tick.
 */
export function AlertField({
  error,
  label = m.sendAlert,
  hint = m.sendAlertHint,
}: {
  error?: string;
  label?: string;
  hint?: string;
}) {
  return (
    <div className="rounded border border-stone-200 p-3" data-testid="alert-field">
      <label className="flex items-center gap-2 font-bold">
        <input
          type="checkbox"
          name="sendAlert"
          value="on"
          defaultChecked={Boolean(error)}
          aria-describedby="send-alert-hint"
        />
        {label}
      </label>
      <p id="send-alert-hint" className="mt-1 text-sm text-stone-500">
        {hint}
      </p>
      {error && (
        <div role="alert" className="mt-2 space-y-2 rounded bg-amber-50 p-2 text-amber-900">
          <p>{error}</p>
          <label className="flex items-center gap-2 font-bold">
            <input type="checkbox" name="confirmAlert" value="on" />
            {m.confirmAlert}
          </label>
        </div>
      )}
    </div>
  );
}
