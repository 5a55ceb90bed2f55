// Headers every answer carries. The page loads only its own scripts and styles and talks
// only to its own server (the WebSocket included); it may be framed by its own origin, or by
// the origins RACELAB_FRAME_ANCESTORS names (slides and blog posts that embed a run).

/** The origins that may frame the page: "'self'" and what RACELAB_FRAME_ANCESTORS lists (space or comma separated). */
export function frameAncestors(setting: string | undefined): string {
  const extra = (setting ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    // An origin, 'none' or 'self': anything else would let a header be injected.
    .filter((source) => /^(https?:\/\/[A-Za-z0-9.-]+(:\d+)?|'none'|'self')$/.test(source));
  if (extra.includes("'none'")) return "'none'";
  return [...new Set(["'self'", ...extra])].join(' ');
}

/** The headers, given who may frame the page. */
export function securityHeaders(ancestors: string): Record<string, string> {
  return {
    // style-src allows inline styles: the timeline sets positions in style attributes.
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
      `frame-ancestors ${ancestors}`,
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}
