// Reading the portal's server-rendered HTML in tests and benchmarks without a browser: React's escaping undone, and
// the value of a hidden field.

/** The text of HTML as React escaped it (&#x27; &quot; &lt; &gt; &amp;). */
export const decodeHtml = (html: string) =>
  html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The value of the first hidden input of this name in a page, or null. */
export const hiddenValue = (html: string, name: string) => {
  const m = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  return m ? decodeHtml(m[1]!) : null;
};
