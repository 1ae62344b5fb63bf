// The text of rendered HTML as a reader sees it: the entities Markdown renderers write for
// <, >, ", ' and & turned back (&amp; last, so an escaped entity stays as written).
export const htmlText = (html: string): string =>
  html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
