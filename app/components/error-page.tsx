import { isRouteErrorResponse, Link } from "react-router";
import { errorOf } from "~/lib/error-body";
import { messages } from "~/lib/messages";

const TEXTS: Record<number, { title: string; body: string }> = {
  400: { title: messages.badRequest, body: messages.serverErrorBody },
  403: { title: messages.forbidden, body: messages.forbiddenBody },
  404: { title: messages.pageNotFound, body: messages.pageNotFoundBody },
};

const textOf = (status: number) => TEXTS[status] ?? { title: messages.serverError, body: messages.serverErrorBody };

/** The status of a thrown error and the message its route gave, if any; anything unexpected is a 500. */
export function describeError(error: unknown): { status: number; message?: string } {
  if (!isRouteErrorResponse(error)) return { status: 500 };
  return { status: error.status, message: errorOf(error.data)?.message };
}

/** The document title of the page a failure renders. */
export function errorPageTitle(error: unknown, siteName: string): string {
  const { status, message } = describeError(error);
  return `${message ?? textOf(status).title} | ${siteName}`;
}

/** The page every failure renders: a status, an Arabic message and a way home. */
export function ErrorPage({ status, message }: { status: number; message?: string }) {
  const text = textOf(status);
  return (
    <section className="mx-auto max-w-xl py-16 text-center" aria-labelledby="error-title">
      <p className="text-6xl font-bold text-brand-600" dir="ltr">
        {status}
      </p>
      <h1 id="error-title" className="mt-4 text-2xl font-bold">
        {message ?? text.title}
      </h1>
      {!message && <p className="mt-2 text-stone-600">{text.body}</p>}
      <Link to="/" className="mt-8 inline-block rounded bg-brand-600 px-5 py-2 font-bold text-white hover:bg-brand-700">
        {messages.backHome}
      </Link>
    </section>
  );
}
