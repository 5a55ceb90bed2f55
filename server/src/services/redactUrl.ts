/** Returns the URL with any password (userinfo or `password` query parameter) replaced by `***`, safe to log. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL we can parse: still hide whatever sits between "user:" and "@".
    return url.replace(/(\/\/[^/:@]*:)[^@/]*@/, '$1***@');
  }
  if (parsed.password) parsed.password = '***';
  // pg accepts ?password=... in connection strings too.
  if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
  return parsed.toString();
}
