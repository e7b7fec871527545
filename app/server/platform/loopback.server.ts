/** This machine by name or address (a URL's hostname, brackets and all, or a bare address). */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}
